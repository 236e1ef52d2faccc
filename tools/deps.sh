#!/bin/sh
# Checks the Debian packages a make target needs; installs the missing ones
# with apt-get when run as root, else says exactly what to install.
#   tools/deps.sh [build|demo|check]
#   build  the compiler and the libraries (libbsd-dev, libjansson-dev;
#          libsqlite3-dev and libmicrohttpd-dev for the ladder's store and
#          server in bin/tournament)
#   demo   and python3 and node (the demo's tournament has Python and JS bots)
#   check  and bats, jq (the JSON checks), procps (pgrep) and tmux (the
#          end-to-end tests),
#          parallel, slurm-wlm and munge (tournaments across machines),
#          mandoc (the manual pages' lint), bubblewrap (the sandbox's
#          other launcher, CARDARENA_BWRAP, which the tests run too), clang
#          and libclang-rt-dev (the libFuzzer targets); the
#          browser test installs chromium itself, as it needs it
#   memcheck  and valgrind (make memcheck)
mode=${1:-build}
pkgs="libbsd-dev libjansson-dev libsqlite3-dev libmicrohttpd-dev pkg-config gcc make"
case $mode in
demo)	pkgs="$pkgs python3 nodejs" ;;
check)	pkgs="$pkgs python3 nodejs bats jq procps tmux parallel slurm-wlm munge mandoc bubblewrap clang libclang-rt-dev" ;;
memcheck) pkgs="$pkgs valgrind" ;;
build)	;;
*)	echo "usage: tools/deps.sh [build|demo|check|memcheck]" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
	# A python3 or node from elsewhere (pyenv, nvm) will do.
	case $p in
	python3) command -v python3 >/dev/null 2>&1 && continue ;;
	nodejs) command -v node >/dev/null 2>&1 && continue ;;
	esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 &&
		apt-get install -y -q --no-install-recommends $missing >/dev/null; } ||
		{ echo "deps: apt-get install$missing failed" >&2; exit 1; }
	exit 0
fi
echo "deps: missing Debian packages:$missing" >&2
echo "deps: install them with: sudo apt-get install$missing" >&2
exit 1
