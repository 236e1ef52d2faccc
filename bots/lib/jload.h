/*
 * A fast reader of the referee's message lines for the C bot SDK: the
 * tree json_loadb(buf, len, 0, ...) builds, built in one pass over the
 * buffer with jansson's own constructors, several times cheaper than
 * jansson's lexer (which copies every token through a string buffer and
 * checks each byte through a stream).
 *
 * The contract: jload() either returns a tree json_equal to the one
 * json_loadb(buf, len, 0, ...) returns (the same types, strings and
 * values; of a duplicate key the last wins; keys set in document order),
 * or it gives up and returns NULL, for anything unusual as well as for
 * anything wrong: a real number, an integer out of json_int_t's range,
 * "\u0000", invalid UTF-8, a control character in a string, nesting
 * deeper than JLOAD_MAX_DEPTH, a top level that is not an object or an
 * array, anything but whitespace after it.  It never accepts what
 * json_loadb rejects.  The caller then calls json_loadb, which gives the
 * exact behaviour and error text (jload_or_loadb does both).
 */
#ifndef CARDARENA_JLOAD_H
#define CARDARENA_JLOAD_H

#include <stddef.h>

#include <jansson.h>

/* Deeper nesting gives up (jansson's own limit is JSON_PARSER_MAX_DEPTH). */
#define JLOAD_MAX_DEPTH	512

/* The tree of buf[0..len) (a new reference), or NULL: it gives up. */
json_t	*jload(const char *buf, size_t len);
/* jload, or when it gives up json_loadb(buf, len, 0, err). */
json_t	*jload_or_loadb(const char *buf, size_t len, json_error_t *err);

#endif
