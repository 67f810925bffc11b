"""What the wheel holds (the metadata is in pyproject.toml).

The `studio` package with its own JavaScript files, and the folders the studio ships from the
checkout's root, carried inside the package as `studio/shipped/<folder>`
(studio.services.core.paths looks for them there): `resources/` (web pages, JavaScript, report
template; not the Scratch GUI bundle in `resources/scratch-gui`, 150 MB, fetched at set-up),
`tasks/` (the bundled task library) and `diagnostics/` (the drag and QA items). Hidden files
and folders (a library's `.trash/`) are not shipped.
"""

import os

from setuptools import find_packages, setup

SHIPPED = {"resources": ["js", "node", "web", "report"], "tasks": None, "diagnostics": None}


def shipped_folders() -> dict[str, str]:
    """Package name -> folder, for each shipped folder and each folder below it (a folder of
    data below a package has to be a package of its own, or setuptools warns that it is
    ambiguous). Hidden folders are left out, and in resources/ all but the listed ones."""
    found = {}
    for top, keep in SHIPPED.items():
        for folder, subfolders, _files in os.walk(top):
            subfolders[:] = sorted(
                d
                for d in subfolders
                if not d.startswith(".") and (folder != top or keep is None or d in keep)
            )
            found["studio.shipped." + folder.replace(os.sep, ".")] = folder
    return found


FOLDERS = shipped_folders()
setup(
    packages=[*find_packages(include=["studio", "studio.*"]), *FOLDERS],
    package_dir=FOLDERS,
    package_data={"": ["*.js"], **{name: ["*"] for name in FOLDERS}},
)
