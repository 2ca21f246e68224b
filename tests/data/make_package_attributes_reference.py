# Run with a reference python: records, for each klampt package, the klampt
# submodules and the functions that `import <package>` alone makes its
# attributes (each package in a fresh interpreter).
# Usage: python make_package_attributes_reference.py package_attributes_<version>.json
import json
import subprocess
import sys

PACKAGES = ["klampt", "klampt.model", "klampt.io", "klampt.control", "klampt.math", "klampt.plan", "klampt.sim",
            "klampt.vis", "klampt.apps", "klampt.model.create", "klampt.control.blocks"]

PROBE = """
import importlib, inspect, json, sys, types
mod = importlib.import_module(sys.argv[1])
out = {"modules": [], "functions": []}
for name in dir(mod):
    obj = getattr(mod, name)
    if name.startswith("_"):
        continue
    if isinstance(obj, types.ModuleType) and obj.__name__.startswith("klampt"):
        out["modules"].append(name)
    elif inspect.isroutine(obj) and str(getattr(obj, "__module__", "")).startswith("klampt"):
        out["functions"].append(name)
print(json.dumps(out))
"""


def main(out_path):
    import klampt
    result = {"version": klampt.__version__, "packages": {}}
    for package in PACKAGES:
        r = subprocess.run([sys.executable, "-c", PROBE, package], capture_output=True, text=True)
        if r.returncode == 0:
            result["packages"][package] = json.loads(r.stdout.strip().splitlines()[-1])
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
