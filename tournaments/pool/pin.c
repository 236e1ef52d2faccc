/*
 * The choice of each referee run's CPU; see pin.h.  The leases (held by
 * the runner for the pool's life) and the slow starters are cpulease.c's,
 * which a referee run alone uses too.
 */
#include <unistd.h>

#include "cpulease.h"
#include "pool/pin.h"

void
pin_take(struct pin *p, const struct tour *t, int jobs)
{
	cpu_set_t set;
	int c, fd;

	p->n = 0;
	p->wrap = t->affinity == AFFINITY_ON;
	if (t->affinity == AFFINITY_OFF ||
	    sched_getaffinity(0, sizeof set, &set) == -1)
		return;
	/* more slots than CPUs: the scheduler spreads them better; bots
	 * asked together think on the CPUs no slot keeps busy */
	if (!p->wrap && (jobs > CPU_COUNT(&set) ||
	    (t->together && jobs < CPU_COUNT(&set))))
		return;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET((size_t)c, &set))
			continue;
		/* "affinity": true pins whatever is free; its leases keep
		 * the default off the CPUs it uses */
		fd = p->n < jobs ? cpu_lease(c) : -1;
		if (fd == -1 && !p->wrap)
			continue;
		p->fd[p->n] = fd;
		p->cpu[p->n++] = c;
		if (!p->wrap && p->n == jobs)
			break;
	}
}

int
pin_cpu(const struct pin *p, const struct tour *t, int slot,
    const struct pool_run *r)
{
	long lives = t->duplicate ? t->seats : 1;
	int i;

	if (p->n == 0 || (!p->wrap && slot >= p->n))
		return -1;
	/* a long run's wake-ups outweigh its start-ups on one CPU */
	if (p->wrap || r->nlist >= PIN_SLOW_GAMES * lives)
		return p->cpu[slot % p->n];
	for (i = 0; i < t->seats; i++)
		if (pin_slow_start(&t->bots[r->bots[i]]))
			return -1;
	return p->cpu[slot % p->n];
}

void
pin_release(struct pin *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (p->fd[i] != -1)
			close(p->fd[i]);
	p->n = 0;
}

int
pin_slow_start(const struct tbot *b)
{
	return cpu_slow_start(b->command, b->dir);
}
