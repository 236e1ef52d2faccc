/*
 * The sweep of stragglers (SECURITY.md): every process a stopped bot left
 * behind, in whatever group or session, is killed and reaped.  The
 * program is a child subreaper (contain_self), so what a bot left comes
 * to it as its children; as root each bot runs as a uid of its own
 * (contain.c), whose every process can be killed at once.  Whether to
 * sweep, and which uids, is contain.c's to say.
 */
#ifndef CARDARENA_SWEEP_H
#define CARDARENA_SWEEP_H

#include <sys/types.h>
#include <sys/resource.h>

/* What processes used: CPU time in ms, the peak resident size in KiB. */
struct usage {
	long	cpu_ms;
	long	maxrss_kb;
};

/*
 * Kills and reaps every child of ours but the watchdog and those keep(pid)
 * spares (keep may be NULL), round after round while their children come
 * to us; when there was any, as root, also every process of uid (unless
 * it is (uid_t)-1).  Adds to u, unless NULL, what the reaped used.
 */
void	 sweep_children(uid_t uid, int (*keep)(pid_t), struct usage *u);
/*
 * Reaps pid, a child of ours, within ms milliseconds, woken by its end
 * (its pidfd; else looking each millisecond); its status and usage in
 * *status and *ru.  0 once reaped; -1 if it did not end in time or is not
 * ours to reap.
 */
int	 sweep_reap(pid_t pid, int ms, int *status, struct rusage *ru);
/*
 * The children of thread tid of process pid, as the kernel lists them
 * (/proc/PID/task/TID/children), into a new array *v (*n of them; NULL
 * when none); 0, or -1 if the list cannot be read whole (no such thread,
 * or no such file where the kernel does not keep one).
 */
int	 sweep_task_children(pid_t pid, pid_t tid, pid_t **v, size_t *n);
/*
 * Starts the watchdog, a process of ours in a group of its own, spared by
 * sweep_children: once the program is gone (even SIGKILLed) it kills
 * every process of every uid in [base, base + n).  Nothing if it cannot.
 */
void	 sweep_watchdog(unsigned base, unsigned n);

#endif
