#!/bin/sh
# After make install PREFIX=$1: says what a shell still needs to find the
# programs, their manual pages and the library's pkg-config file, when
# PREFIX is not where they are looked for already (e.g. $HOME/.local).
# The library itself needs nothing at run time: cardarena.pc gives an
# rpath.
prefix=$1
pcdir=$prefix/lib/pkgconfig
case ":$PATH:" in
*":$prefix/bin:"*) path= ;;
*) path=yes ;;
esac
case ":${PKG_CONFIG_PATH:-}:$(pkg-config --variable pc_path pkg-config 2>/dev/null):" in
*":$pcdir:"*) pc= ;;
*) pc=yes ;;
esac
[ -n "$path$pc" ] || exit 0
echo "make install: $prefix is not on this shell's search paths; add to your shell's profile:"
[ -z "$path" ] ||
	echo "    export PATH=\"$prefix/bin:\$PATH\"    # the programs, and man finds their pages"
[ -z "$pc" ] ||
	echo "    export PKG_CONFIG_PATH=\"$pcdir\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\"    # cc prog.c \$(pkg-config --cflags --libs cardarena)"
exit 0
