#!/usr/bin/env python3
# Runs a command and writes to the file named by RUSAGE_OUT the CPU time of its whole process
# tree (user + system of every descendant that was waited for, as /usr/bin/time counts it) and
# its wall time, both to its very end (bench/user-cost.mjs). Its output goes to stdout.
import json, os, subprocess, sys, time

out = os.environ.pop('RUSAGE_OUT')
started = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
output = child.stdout.read()
_, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - started
sys.stdout.buffer.write(output)
with open(out, 'w') as f:
    json.dump({
        'cpuMs': (usage.ru_utime + usage.ru_stime) * 1000,
        'wallMs': wall * 1000,
        'code': os.waitstatus_to_exitcode(status),
    }, f)
