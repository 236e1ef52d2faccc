/*
 * The usage of bin/tournament (usage.c): every command's, printed by
 * --help and on a command-line error of any command.
 */
#ifndef CARDARENA_BASE_USAGE_H
#define CARDARENA_BASE_USAGE_H

#include <stdio.h>

/* usage.c: prints the usage of every command; exits with status. */
void	 tournament_usage(FILE *, int) __attribute__((noreturn));

#endif
