#!/usr/bin/env bash
# Runs here (Debian 12 with scripts/install-deps.sh host): copies Debian's python3 (the interpreter the module is
# built for), its standard library and the packages the Python tests import (numpy, pytest and what pytest needs)
# into DIR, laid out as under /, with every shared library they need that a bare CUDA image may lack in DIR/deps.
# The GPU machines' own python3 is another version, which a module built here cannot load. There:
#   PYTHONHOME=DIR/usr LD_LIBRARY_PATH=DIR/deps:... DIR/usr/bin/python3 -m pytest ...
# usage: perf/device/python-bundle.sh DIR
set -euo pipefail
dir=$1
rm -rf "$dir" && mkdir -p "$dir"
python=$(readlink -f /usr/bin/python3)
version=$(basename "$python")
copy() { local f; for f in "$@"; do mkdir -p "$dir$(dirname "$f")"; cp -a "$f" "$dir$f"; done; }
copy "$python" /usr/lib/"$version"
ln -sf "$version" "$dir/usr/bin/python3"
packages=/usr/lib/python3/dist-packages
for p in numpy pytest _pytest py.py pluggy iniconfig packaging attr attrs more_itertools exceptiongroup tomli; do
  [ ! -e "$packages/$p" ] || copy "$packages/$p"
done
# What the tests never import, and byte code (rebuilt there on first import).
rm -rf "$dir/usr/lib/$version"/{test,idlelib,tkinter,turtledemo,ensurepip,lib2to3,pydoc_data,config-*} \
  "$dir/usr/lib/$version"/lib-dynload/_tkinter*
find "$dir" -depth -name __pycache__ -exec rm -rf {} +
mkdir -p "$dir/deps"
. "$(dirname "$0")/libraries.sh"
copy_libraries "$dir" "$dir/deps"
du -sh "$dir"
