"""The Klamp't apps, installed as console scripts and runnable as
``python -m klampt.apps.<name>``:

- ``klampt_browser`` (:mod:`klampt.apps.browser`): opens worlds, robots,
  objects, geometries, paths and configurations in one view.
- ``klampt_sim`` (:mod:`klampt.apps.sim`): simulates a world with its
  controllers, in a window or headless (frames or a log).
- ``klampt_resource`` (:mod:`klampt.apps.resource`): thumbnails and
  conversions of resource files.
- ``klampt_control`` (:mod:`klampt.apps.control`): drives a Robot Interface
  Layer controller.

Each shows its options with ``--help``; ``--backend viser`` serves the view
to a browser (for use over SSH).
"""
