"""Input/output of Klamp't objects: native text formats and JSON
(:mod:`loader`), conversion to numpy arrays (:mod:`numpy_convert`) and named
resources in a directory (:mod:`resource`)."""
