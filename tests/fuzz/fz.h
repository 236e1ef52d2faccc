/*
 * Shared by the libFuzzer targets of tests/fuzz/ (make fuzz-lib): the
 * entry point each defines, and a helper that turns the fuzzer's bytes
 * into a path for the readers that take a file name.
 */
#ifndef CARDARENA_FZ_H
#define CARDARENA_FZ_H

#include <stddef.h>
#include <stdint.h>

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);
/*
 * Writes data to a fresh memory file and calls load with its
 * /proc/self/fd path; returns 0 (the entry point's return).
 */
int	 fz_file(const uint8_t *, size_t, void (*)(const char *));

#endif
