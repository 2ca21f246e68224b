"""Tests of the COMPAS FAB backend (klampt.compas_fab, klampt.io.compas_fab)."""
