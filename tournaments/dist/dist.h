/*
 * Tournaments across machines (dist.c): plans of jobs, a job run, the
 * job journals merged, their status.
 */
#ifndef CARDARENA_DIST_DIST_H
#define CARDARENA_DIST_DIST_H

int	 cmd_plan(int, char **);
int	 cmd_job(int, char **);
int	 cmd_merge(int, char **);
int	 cmd_status(int, char **);

#endif
