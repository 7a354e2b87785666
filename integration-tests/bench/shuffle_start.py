#!/usr/bin/env python3
"""What the shuffle agent (odrust:detect-id) adds to a test JVM's start, side by side.

Usage: shuffle_start.py AGENT_JAR [--runs N]

Times `java Hello` (a class that iterates one HashMap) N times in each variant, interleaved:
plain (no agent), the shuffle agent writing its runtime's jar to a temporary file (no
`runtime-cache`, as every JVM did before), and the agent reading the jar an earlier JVM left in a
`runtime-cache` directory. Prints each variant's median wall time and its ratio to plain's.
Needs javac and java on the PATH (the JDK the tests run on).
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

HELLO = """import java.util.*;
public class Hello { public static void main(String[] a) { Map<String, Integer> m = new HashMap<>();
  for (int i = 0; i < 10; i++) m.put("k" + i, i); System.out.println(m.keySet()); } }
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument('agent')
    p.add_argument('--runs', type=int, default=15)
    a = p.parse_args()
    agent = os.path.abspath(a.agent)
    work = tempfile.mkdtemp(prefix='odrust-shuffle-start-')
    with open(os.path.join(work, 'Hello.java'), 'w') as f:
        f.write(HELLO)
    subprocess.run(['javac', 'Hello.java'], cwd=work, check=True)
    base = 'mode shuffle\nroot %s\nseed 1\nlog %s/shuffle.jsonl\n' % (work, work)
    with open(os.path.join(work, 'temp.txt'), 'w') as f:
        f.write(base)
    with open(os.path.join(work, 'cache.txt'), 'w') as f:
        f.write(base + 'runtime-cache %s/cache\n' % work)
    variants = {
        'plain': ['java', '-cp', '.', 'Hello'],
        'agent, temporary runtime jar': ['java', '-javaagent:%s=%s/temp.txt' % (agent, work), '-cp', '.', 'Hello'],
        'agent, runtime-cache': ['java', '-javaagent:%s=%s/cache.txt' % (agent, work), '-cp', '.', 'Hello'],
    }
    # the cache's first JVM writes the jar; not timed
    subprocess.run(variants['agent, runtime-cache'], cwd=work, check=True, capture_output=True)
    times = {k: [] for k in variants}
    for _ in range(a.runs):
        for k, cmd in variants.items():
            start = time.perf_counter()
            subprocess.run(cmd, cwd=work, check=True, capture_output=True)
            times[k].append(time.perf_counter() - start)
    plain = statistics.median(times['plain'])
    print('| variant | median of %d | / plain |' % a.runs)
    print('|---|---|---|')
    for k, v in times.items():
        m = statistics.median(v)
        print('| %s | %.0f ms | %.2fx |' % (k, m * 1000, m / plain))
    print('(java: %s; work directory %s)' % (subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0], work))


if __name__ == '__main__':
    main()
