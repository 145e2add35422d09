#!/bin/bash
# [PRIO=N] setsid ./background.sh CMD [ARG...]: CMD at nice 19 in the new session's autogroup,
# set to nice N (19 unless given). With the kernel's autogroups (sched_autogroup_enabled = 1) a process's nice ranks it
# only within its session, and every session gets an equal share of the CPU, so a plain
# `nice -n 19` in a session of its own took as much CPU as a timed match at nice 0 (found on
# 27 Nov, seventh session). CMD replaces this shell (exec): under setsid it leads its session
# and process group, so `kill -- -PID` ends it with its children. Among sessions the autogroup's
# nice is what shares the cores: from 29 Nov (sixteenth session) the scaling study's two runs go
# at PRIO=0 and datagen's two seeds and the network's SPRT at PRIO=3 (about 1.1 cores for the
# study, 0.9 for the data), and the technique SPRTs at 19 take what is left.
echo ${PRIO:-19} > /proc/self/autogroup
exec nice -n 19 "$@"
