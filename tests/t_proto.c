/*
 * Unit tests of the referee's answer reading (referee/proto.c): the fast
 * path for the common {"id":N,"index":I[,"amount":A]} line, which must take
 * exactly that shape and leave every other line to the full parser, and
 * the index/amount checks both paths share.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "proto.h"

static void	quick(const char *, int, long long, long long, int, long long);
static int	capped(const char *);

/* json_text_true of text's "capped". */
static int
capped(const char *text)
{
	return json_text_true(text, strlen(text), "capped");
}

/* Checks proto_quick on line: want 0 (with the values) or -1. */
static void
quick(const char *line, int want, long long id, long long index, int has,
    long long amount)
{
	int64_t gid = -7;
	long long gi = -7, ga = -7;
	int gh = -7, rc;
	char what[200];

	rc = proto_quick(line, strlen(line), &gid, &gi, &gh, &ga);
	snprintf(what, sizeof what, "quick %s %s", want == 0 ? "takes" :
	    "leaves", line);
	if (want == -1)
		tap_ok(rc == -1, "%s", what);
	else
		tap_ok(rc == 0 && gid == id && gi == index && gh == has &&
		    (!has || ga == amount), "%s", what);
}

int
main(void)
{
	struct legal l[3] = {
		{ .code = 10 },
		{ .code = 20, .lo = 1, .hi = 17, .ranged = 1 },
		{ .code = 30 },
	};
	struct action a;
	char why[256];

	quick("{\"id\":7,\"index\":0}", 0, 7, 0, 0, 0);
	quick("{\"id\": 12, \"index\": 3}", 0, 12, 3, 0, 0);
	quick("{\"id\":5,\"index\":1,\"amount\":17}", 0, 5, 1, 1, 17);
	quick(" {\"id\":5,\"index\":1,\"amount\":-2} ", 0, 5, 1, 1, -2);
	quick("{\"index\":0,\"id\":7}", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"index\":0,\"debug\":\"x\"}", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"index\":\"0\"}", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"index\":0.5}", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"index\":1e2}", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"index\":+1}", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"index\":0}x", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"index\":0", -1, 0, 0, 0, 0);
	quick("{\"id\":1234567890123456789,\"index\":0}", -1, 0, 0, 0, 0);
	quick("{\"id\":7,\"action\":{\"type\":\"done\"}}", -1, 0, 0, 0, 0);
	quick("", -1, 0, 0, 0, 0);

	tap_ok(proto_index(l, 3, 2, 0, 0, &a, why, sizeof why) == -1 &&
	    a.code == 30 && a.amount == 0, "index of a fixed entry");
	tap_ok(proto_index(l, 3, 1, 1, 9, &a, why, sizeof why) == -1 &&
	    a.code == 20 && a.amount == 9, "index and amount of a ranged entry");
	tap_ok(proto_index(l, 3, 3, 0, 0, &a, why, sizeof why) == FAULT_ILLEGAL,
	    "an index past the list is illegal");
	tap_ok(proto_index(l, 3, -1, 0, 0, &a, why, sizeof why) == FAULT_ILLEGAL,
	    "a negative index is illegal");
	tap_ok(proto_index(l, 3, 1, 0, 0, &a, why, sizeof why) == FAULT_ILLEGAL &&
	    strstr(why, "needs an \"amount\" from 1 to 17") != NULL,
	    "a ranged entry without an amount is illegal, with its range");
	tap_ok(proto_index(l, 3, 1, 1, 18, &a, why, sizeof why) == FAULT_ILLEGAL,
	    "an amount over the range is illegal");
	tap_ok(proto_index(l, 3, 0, 1, 99, &a, why, sizeof why) == -1 &&
	    a.amount == 0, "a fixed entry ignores an amount");
	/* json_text_true: top-level keys only, whatever nests or quotes */
	tap_ok(capped("{\"a\":1,\"capped\":true}"),
	    "json_text_true: a top-level true");
	tap_ok(!capped("{\"capped\":false,\"x\":true}"),
	    "json_text_true: false is not true");
	tap_ok(!capped("{\"v\":{\"capped\":true}}"),
	    "json_text_true: a nested key is not the top level's");
	tap_ok(!capped("{\"s\":\"\\\",\\\"capped\\\":true\"}"),
	    "json_text_true: nor one inside a string");
	tap_ok(!capped("{\"l\":[{\"capped\":true}],\"cap\":true}"),
	    "json_text_true: nor one in an array, nor a prefix");
	tap_ok(capped("{\"l\":[1,{}],\"capped\":true}"),
	    "json_text_true: after an array");
	tap_ok(!capped("{\"capped\":tru"), "json_text_true: a cut text");
	return tap_done();
}
