/*
 * CPU leases: the CPUs a tournament's referee runs may keep to themselves.
 * By default (no "affinity" in the tournament file) each slot of the pool
 * runs its referee and that referee's bots on one CPU of its own, so that
 * a table's wake-ups stay on one CPU, but only when that cannot hurt: no
 * more slots than CPUs the runner may use, each CPU leased machine-wide
 * (two tournaments, a ladder, other users, never pin to the same CPU),
 * and not for a short run (under PIN_SLOW_GAMES games a lifetime) with a
 * bot whose interpreter starts slowly (its start-ups would queue on one
 * CPU for more than the wake-ups save).  "affinity": true pins every slot
 * (the i-th on the i-th CPU the runner may use) whatever else runs;
 * false never pins.
 */
#ifndef CARDARENA_PIN_H
#define CARDARENA_PIN_H

#include <sched.h>

#include "cpulease.h"
#include "pool/pool.h"

struct tbot;

/* The CPUs of a pool's slots and the leases held on them. */
struct pin {
	int	 cpu[CPU_SETSIZE];
	int	 fd[CPU_SETSIZE];	/* the lease on cpu[i], or -1 */
	int	 n;			/* slot i runs on cpu[i] if i < n */
	int	 wrap;			/* "affinity" true: on cpu[i % n] */
};

/*
 * Fills p for a pool of jobs slots of tournament t: the CPUs leased (or,
 * with "affinity": true, every CPU this process may use); none if pinning
 * could hurt or no lease is free.  Never fails: no pinning is the fallback.
 */
void	 pin_take(struct pin *, const struct tour *, int);
/* The CPU for slot i's run r, or -1: float. */
int	 pin_cpu(const struct pin *, const struct tour *, int,
	    const struct pool_run *);
/* Gives back the leases of p. */
void	 pin_release(struct pin *);
/* 1 if a bot's command starts an interpreter known to start slowly. */
int	 pin_slow_start(const struct tbot *);

#endif
