# cardarena: a plain Makefile with pkg-config.
#
#   make                 build every program into bin/
#   make check           install missing Debian packages (as root), build, test
#   make check-loaded    make check beside 8 busy processes (tools/loaded.sh)
#   make demo            the same set-up, then a short tournament of the bundled bots
#   make bench           benchmarks (never part of check)
#   make memcheck        a few matches of every game under valgrind
#   make ladder-demo     a ladder of the bundled bots for a minute
#   make ladder-sim      the ladder's pairing against random tables
#   make SANITIZE=1 check   the tests under AddressSanitizer + UBSan
#   make fuzz            random play (tests/fuzz.c) and the libFuzzer targets
#   make install PREFIX=/usr/local
#
# Layout picked up automatically:
#   referee/engine/**.c            -> build/std/libengine.a: the rules engines
#                                     and what they need, nothing of processes
#   referee/*.c                    -> build/std/libreferee.a: the process side
#                                     (except referee/referee.c)
#   referee/engine/ (position-independent) -> lib/libcardarena.a and
#                                     lib/libcardarena.so (public: cardarena.h)
#   referee/referee.c              -> bin/referee
#   bots/*.c                       -> bin/<name>   (each file one bot, + bots/lib/*.c)
#   tournaments/*.c                -> bin/tournament
#   tools/<prog>/*.c               -> bin/<prog>
#   tools/render/*.c               -> build/librender.a (the terminal renderer,
#                                     linked into every tool and bin/human)
#   tests/*.c                      -> build/tests/<name> (test drivers, TAP output)

PREFIX	?= /usr/local
CC	?= gcc
PKGS	 = libbsd-overlay libmd jansson
WARN	 = -Wall -Wextra -Wno-long-long -Wmissing-prototypes -Wstrict-prototypes \
	   -Wmissing-declarations -Wshadow -Wpointer-arith -Wcast-align \
	   -Wwrite-strings -Wsign-compare -Wundef -Wformat=2 -Wno-unused-parameter
OPT	?= -O2
CFLAGS	+= -std=c11 -D_GNU_SOURCE -g $(OPT) $(WARN) -Ireferee -Ireferee/engine -Itournaments -Itools/render
LDLIBS	+= -lm

# SANITIZE=1 builds with ASan + UBSan, but for the public library (lib/,
# from build/lib/ in either variant): programs that do not carry ASan's
# runtime load it (Python's ctypes, a C program linked by pkg-config).
# Its sources are checked in build/san's objects, which the programs use.
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ifeq ($(SANITIZE),1)
CFLAGS	+= $(SAN_FLAGS)
LDFLAGS	+= -fsanitize=address,undefined
VARIANT	 = san
else
VARIANT	 = std
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS	+= $(PKG_CFLAGS)
LDLIBS	:= $(PKG_LIBS) $(LDLIBS)

# The ladder's store and server, in bin/tournament alone.  The server's
# libmicrohttpd is not linked but loaded by `ladder serve` (dlopen of its
# soname, read here): every other command starts without it and the TLS
# libraries it pulls in.
LADDER_PKGS   = sqlite3 libmicrohttpd
LADDER_CFLAGS = $(shell pkg-config --cflags $(LADDER_PKGS) 2>/dev/null)
LADDER_LIBS   = $(shell pkg-config --libs sqlite3 2>/dev/null) -ldl
MHD_SONAME    = $(shell objdump -p "$$(pkg-config --variable=libdir libmicrohttpd 2>/dev/null)/libmicrohttpd.so" 2>/dev/null | awk '$$1 == "SONAME" { print $$2 }')

B	 = build/$(VARIANT)
# The engines: every source under referee/engine (the library's room).
ENGINE_SRC = $(wildcard referee/engine/*.c referee/engine/games/*.c)
ENGINE_LIB = $(B)/libengine.a
REF_SRC	 = $(filter-out referee/referee.c,$(wildcard referee/*.c))
REF_LIB	 = $(B)/libreferee.a
LIB_SRC	 = $(REF_SRC) $(ENGINE_SRC)
# What a program links: the process side, then the engines it calls.
LIB	 = $(REF_LIB) $(ENGINE_LIB)
HDRS	 = $(wildcard referee/*.h referee/engine/*.h referee/engine/games/*.h bots/*.h bots/lib/*.h tournaments/*/*.h tools/*/*.h tests/*.h)

BOT_SRC	 = $(wildcard bots/*.c)
# The bots' library (the C SDK, MCTS, the heuristics two programs share):
# an archive, so that each bot links only what it calls.
BOT_LIB	 = $(B)/libbots.a
BOT_BIN	 = $(BOT_SRC:bots/%.c=bin/%)
TOUR_SRC = $(wildcard tournaments/*.c tournaments/*/*.c)
TOUR_BIN = $(if $(TOUR_SRC),bin/tournament)
TOOL_DIRS = $(filter-out tools/render,$(patsubst %/,%,$(dir $(wildcard tools/*/*.c))))
RENDER_LIB = $(B)/librender.a
TOOL_BIN = $(sort $(TOOL_DIRS:tools/%=bin/%))
TEST_SRC = $(filter-out tests/common.c,$(wildcard tests/*.c))
TEST_LIB = $(B)/tests/common.o
TEST_BIN = $(TEST_SRC:tests/%.c=$(B)/tests/%)
PROGS	 = bin/referee $(BOT_BIN) $(TOUR_BIN) $(TOOL_BIN)
# bin/ is the variants' both (build/ is not): programs linked by the other
# variant go, so that all are linked again, not bin/tournament alone (its
# objects newer than it) with the rest left as the other's
ifneq ($(shell cat bin/.variant 2>/dev/null),$(VARIANT))
$(shell rm -f $(PROGS); mkdir -p bin && echo $(VARIANT) > bin/.variant)
endif

# The engines as a library for bot authors (referee/cardarena.h): the
# rules, their codecs and the public interface, static and shared (its
# objects built position-independent into build/lib, never sanitized;
# the .so exporting only ca_*), with pkg-config files written at install
# (referee/engine/cardarena.pc.in and cardarena-shared.pc.in: --libs links the
# .so with an rpath, --static the .a).
PUB_CFLAGS = $(filter-out $(SAN_FLAGS),$(CFLAGS))
PIC_OBJ	 = $(ENGINE_SRC:%.c=build/lib/%.o)
PUBLIB	 = lib/libcardarena.a lib/libcardarena.so

.PHONY: all deps check check-loaded demo bench memcheck install clean fuzz \
	ladder-demo ladder-sim
.SECONDARY:

all: $(PROGS) $(TEST_BIN) $(PUBLIB)

# Rebuild everything when the variant (SANITIZE or not) changes.
$(B)/.stamp:
	@mkdir -p $(B); rm -f build/*/.stamp; touch $@

$(B)/%.o: %.c $(HDRS) $(B)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(ENGINE_LIB): $(ENGINE_SRC:%.c=$(B)/%.o)
	@rm -f $@
	ar rcs $@ $^

$(REF_LIB): $(REF_SRC:%.c=$(B)/%.o)
	@rm -f $@
	ar rcs $@ $^

$(RENDER_LIB): $(patsubst %.c,$(B)/%.o,$(wildcard tools/render/*.c))
	@rm -f $@
	ar rcs $@ $^

build/lib/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(PUB_CFLAGS) -fPIC -c -o $@ $<

lib/libcardarena.a: $(PIC_OBJ) Makefile
	@mkdir -p lib
	@rm -f $@
	ar rcs $@ $(filter %.o,$^)

lib/libcardarena.so: $(PIC_OBJ) referee/engine/cardarena.map
	@mkdir -p lib
	$(CC) $(filter-out -fsanitize=%,$(LDFLAGS)) -shared -Wl,--no-undefined -Wl,-soname,libcardarena.so.1 \
	    -Wl,--version-script=referee/engine/cardarena.map -o $@ $(PIC_OBJ) $(LDLIBS)


bin/referee: $(B)/referee/referee.o $(LIB)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BOT_LIB): $(patsubst %.c,$(B)/%.o,$(wildcard bots/lib/*.c))
	@rm -f $@
	ar rcs $@ $^

bin/%: $(B)/bots/%.o $(BOT_LIB) $(LIB)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# t_speculation_edge tests the speculation search's values
# (bots/lib/speculation_search.c), linked as every bot links them.
$(B)/tests/t_speculation_edge: $(B)/tests/t_speculation_edge.o $(TEST_LIB) $(BOT_LIB) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# t_jload tests the C SDK's message reader (bots/lib/jload.c).
$(B)/tests/t_jload: $(B)/tests/t_jload.o $(TEST_LIB) $(BOT_LIB) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tournaments/ladder/%.o: CFLAGS += $(LADDER_CFLAGS)
$(B)/tournaments/ladder/ladder_serve.o: CFLAGS += -DMHD_SONAME='"$(MHD_SONAME)"'
# Every tournaments/ folder's objects in one archive, which bin/tournament
# (tournament.c, the command line) and the unit tests link.
TOUR_LIB = $(B)/libtournament.a
$(TOUR_LIB): $(patsubst %.c,$(B)/%.o,$(filter-out tournaments/tournament.c,$(TOUR_SRC)))
	@rm -f $@
	ar rcs $@ $^

bin/tournament: $(B)/tournaments/tournament.o $(TOUR_LIB) $(LIB)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LADDER_LIBS) $(LDLIBS)

.SECONDEXPANSION:
$(TOOL_BIN): bin/%: $$(addprefix $(B)/,$$(subst .c,.o,$$(wildcard tools/$$*/*.c))) $(RENDER_LIB) $(LIB)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: $(B)/tests/%.o $(TEST_LIB) $(TOUR_LIB) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LADDER_LIBS) $(LDLIBS)

# Parallel builds for check and demo: every core.
NPROC	:= $(shell nproc 2>/dev/null || echo 2)

# Debian packages: installed when missing and root, else a clear message.
deps:
	@sh tools/deps.sh build

check:
	@sh tools/deps.sh check
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@B=$(B) sh tests/run

# The suite must hold on a busy machine: the same check with 8 processes
# spinning beside it, stopped however it ends.
check-loaded:
	@sh tools/loaded.sh $(MAKE) --no-print-directory check

# The demo builds every program (not the tests), in parallel and quietly
# (compiler warnings still show), so that the README's tour and the
# demo's closing lines (bin/botcheck, bin/human, ...) run; then it plays
# (tools/demo.sh).
demo:
	@sh tools/deps.sh demo
	@echo "demo: building every program into bin/ (make -j$(NPROC))"
	@$(MAKE) --no-print-directory -s -j$(NPROC) $(PROGS)
	@sh tools/demo.sh

# A ladder of the bundled bots for a minute (tools/ladder-demo.sh).
ladder-demo:
	@sh tools/deps.sh demo
	@$(MAKE) --no-print-directory -s -j$(NPROC) $(PROGS)
	@sh tools/ladder-demo.sh

# How many games a new bot needs to reach +-50 Elo, the ladder's pairing
# against uniform random tables (tests/sim_ladder.c).
ladder-sim: $(B)/tests/sim_ladder
	@$(B)/tests/sim_ladder -t $${SIM_TRIALS:-20}

bench:
	@sh tools/deps.sh demo
	@$(MAKE) --no-print-directory all
	@B=$(B) sh tests/bench.sh

# Every game under valgrind's memcheck (tools/memcheck.sh): 0 errors.
memcheck:
	@sh tools/deps.sh memcheck
	@$(MAKE) --no-print-directory all
	@sh tools/memcheck.sh

fuzz: all
	@B=$(B) FUZZ_GAMES=$${FUZZ_GAMES:-100000} sh tests/run fuzz
	@B=$(B) LIBFUZZ_SECONDS=$${FUZZ_SECONDS:-60} sh tests/run libfuzz

# Programs to bin/ under the project's name, bin/X as cardarena-X (a
# program finds the others beside it by either name); to share/cardarena
# the documents (with the rules in docs/rules/, which protocol.md cites,
# and SECURITY.md), the bot SDKs (C source, Python, JS) with their example
# bots, and the example tournaments, their bot commands made absolute
# (PREFIX/bin/cardarena-...) so that they run from any directory; the man
# pages docs/man/*.1 and *.5 to share/man.
SHARE	 = $(DESTDIR)$(PREFIX)/share/cardarena
MAN	 = $(DESTDIR)$(PREFIX)/share/man
MAN1	 = $(wildcard docs/man/*.1)
MAN5	 = $(wildcard docs/man/*.5)
# The library is found at run time through the rpath cardarena.pc gives
# (any PREFIX but /usr, whose lib ld.so searches anyway); what the shell
# still needs (PATH, PKG_CONFIG_PATH) tools/install-note.sh prints.
PC_RPATH = $(if $(filter /usr,$(PREFIX)),,-Wl,-rpath,$${libdir})
install: all
	$(if $(filter-out 1,$(words $(DESTDIR)$(PREFIX))),$(error make install: PREFIX and DESTDIR must be one word each, without spaces (got "$(DESTDIR)$(PREFIX)")))
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)/bots/lib $(SHARE)/bots/python \
	    $(SHARE)/bots/js $(SHARE)/tournaments/examples $(SHARE)/docs/rules
	for p in $(PROGS); do \
	    install -m 755 "$$p" $(DESTDIR)$(PREFIX)/bin/cardarena-$${p#bin/} || exit 1; \
	done
	install -m 644 protocol.md README.md HACKING.md SECURITY.md $(SHARE)/
	install -m 644 docs/rules/*.md $(SHARE)/docs/rules/
	$(if $(MAN1),install -d $(MAN)/man1 && install -m 644 $(MAN1) $(MAN)/man1/)
	$(if $(MAN5),install -d $(MAN)/man5 && install -m 644 $(MAN5) $(MAN)/man5/)
	for f in tournaments/examples/*.json; do \
	    sed -e 's|"command": "bin/|"command": "$(PREFIX)/bin/cardarena-|' \
	        -e 's|run from the repository root with bin/tournament run tournaments/|run from any directory with $(PREFIX)/bin/cardarena-tournament run $(PREFIX)/share/cardarena/tournaments/|' \
	        "$$f" > $(SHARE)/tournaments/examples/$${f##*/} || exit 1; \
	done
	install -m 644 bots/lib/bot.h bots/lib/bot.c bots/lib/jload.h bots/lib/jload.c \
	    referee/engine/utf8.h \
	    referee/engine/rng.h referee/engine/rng.c \
	    $(SHARE)/bots/lib/
	install -m 644 bots/random.c $(SHARE)/bots/
	install -m 644 bots/python/*.py $(SHARE)/bots/python/
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 referee/engine/cardarena.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 lib/libcardarena.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 lib/libcardarena.so $(DESTDIR)$(PREFIX)/lib/libcardarena.so.1
	ln -sf libcardarena.so.1 $(DESTDIR)$(PREFIX)/lib/libcardarena.so
	for f in cardarena cardarena-shared; do \
	    sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@RPATH@|$(PC_RPATH)|' \
	        referee/engine/$$f.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$f.pc || exit 1; \
	done
	install -m 644 bots/js/*.js $(SHARE)/bots/js/
	$(if $(DESTDIR),,@sh tools/install-note.sh $(PREFIX))

clean:
	rm -rf build bin lib

# The replay viewer's page is assembled into html.o (.incbin).
$(B)/tools/replay/html.o: tools/replay/viewer.html

# bin/human draws the table with the terminal renderer.
bin/human: $(B)/bots/human.o $(RENDER_LIB) $(BOT_LIB) $(LIB)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)


# libFuzzer targets (clang; tests/fuzz/fz_*.c): the answer reader and
# action decoder and the --setup parser of every game, the match-log
# reader, the tournament-file and journal readers, the results line's two
# readers (which must agree), each built with its
# code under ASan + UBSan into build/fuzz/.  `make fuzz` runs each for
# FUZZ_SECONDS (default 60) on its corpus in tests/fuzz/corpus/NAME/;
# `make check` runs each for 3 seconds (tests/run libfuzz, tests/fuzz/run.sh).
FZ	  = build/fuzz
FZ_CC	  = clang
FZ_SAN	  = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FZ_CFLAGS = -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer $(FZ_SAN) \
	    -fsanitize=fuzzer-no-link -Ireferee -Ireferee/engine -Itools/render -Itools/replay \
	    -Itournaments -Itests/fuzz $(PKG_CFLAGS)
FZ_NAMES  = answer setup log tfile journal results
FZ_BIN	  = $(FZ_NAMES:%=$(FZ)/fz_%)
FZ_OBJ	  = $(LIB_SRC:%.c=$(FZ)/%.o) \
	    $(patsubst %.c,$(FZ)/%.o,$(filter-out tournaments/tournament.c tournaments/ladder/%,$(TOUR_SRC))) \
	    $(FZ)/tools/replay/rlog.o $(FZ)/tools/replay/verify.o $(FZ)/tools/replay/head.o \
	    $(patsubst %.c,$(FZ)/%.o,$(wildcard tools/render/*.c)) \
	    $(FZ)/tests/fuzz/fz_file.o

.PHONY: fuzz-build
fuzz-build: $(FZ_BIN)

$(FZ)/%.o: %.c $(HDRS) tests/fuzz/fz.h
	@mkdir -p $(dir $@)
	$(FZ_CC) $(FZ_CFLAGS) -c -o $@ $<

$(FZ)/fz_%: $(FZ)/tests/fuzz/fz_%.o $(FZ_OBJ)
	$(FZ_CC) $(FZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
