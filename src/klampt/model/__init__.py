"""Pure-Python modelling helpers built on the core classes: trajectories,
configurations, coordinates, robot info and more, as in Klamp't."""
