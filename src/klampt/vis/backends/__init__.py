"""The backends of :mod:`klampt.vis` (a window with GLFW or Qt, offscreen
rendering, HTML, Jupyter, viser, Rerun); :mod:`klampt.vis.visualization`
chooses one. Importing this package imports none of them."""
