#!/bin/bash
# setsid ./background.sh CMD [ARG...]: CMD at nice 19 in the new session's autogroup, set to
# nice 19. With the kernel's autogroups (sched_autogroup_enabled = 1) a process's nice ranks it
# only within its session, and every session gets an equal share of the CPU, so a plain
# `nice -n 19` in a session of its own took as much CPU as a timed match at nice 0 (found on
# 27 Nov, seventh session). CMD replaces this shell (exec): under setsid it leads its session
# and process group, so `kill -- -PID` ends it with its children.
echo 19 > /proc/self/autogroup
exec nice -n 19 "$@"
