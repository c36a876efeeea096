"""Start-up and round-trip benchmark: proflens against Debian's ipykernel,
measured side by side through the same jupyter_client harness.

- start: from KernelManager.start_kernel() to the first kernel_info_reply
  (one kernel_info_request, sent as soon as the channels start);
- round trip: execute_interactive(code) until execute_reply and status idle,
  with `echo hi` on proflens and `pass` on ipykernel.

Run: JUPYTER_PATH=<prefix>/share/jupyter /usr/bin/python3 tests/bench_startup.py [--starts 10] [--trips 200]
(`make bench` does this). Prints medians and the ratios the issue asks for.
"""

import argparse
import statistics
import time

import zmq
from jupyter_client import KernelManager

KERNELS = [("proflens", "echo hi"), ("python3", "pass")]


def time_start(name):
    km = KernelManager(kernel_name=name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    msg_id = kc.kernel_info()
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    elapsed = time.perf_counter() - t0
    return elapsed, km, kc


def time_trips(kc, code, n):
    kc.wait_for_ready(timeout=60)
    for _ in range(5):  # warm up
        kc.execute_interactive(code, timeout=30, output_hook=lambda m: None)
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        reply = kc.execute_interactive(code, timeout=30, output_hook=lambda m: None)
        out.append(time.perf_counter() - t0)
        assert reply["content"]["status"] == "ok", reply
    return out


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--starts", type=int, default=10)
    ap.add_argument("--trips", type=int, default=200)
    args = ap.parse_args()
    # The same fast reconnect for every kernel, so start-up is not rounded
    # up to libzmq's default 100 ms reconnect interval.
    zmq.Context.instance().setsockopt(zmq.RECONNECT_IVL, 5)

    results = {}
    for name, code in KERNELS:
        starts = []
        for i in range(args.starts):
            t, km, kc = time_start(name)
            starts.append(t)
            if i == args.starts - 1:
                trips = time_trips(kc, code, args.trips)
            stop(km, kc)
        results[name] = (starts, trips)

    print(f"{'kernel':10} {'start median':>13} {'min':>8} {'max':>8}   {'round trip median':>18} {'p90':>8}")
    for name, code in KERNELS:
        s, r = results[name]
        p90 = statistics.quantiles(r, n=10)[-1]
        print(f"{name:10} {statistics.median(s)*1000:10.1f} ms {min(s)*1000:5.1f} ms {max(s)*1000:5.1f} ms"
              f"   {statistics.median(r)*1000:15.2f} ms {p90*1000:5.2f} ms  ({code!r}, {len(s)} starts, {len(r)} trips)")
    ps, pr = results["proflens"]
    ys, yr = results["python3"]
    print(f"start: proflens is {statistics.median(ys)/statistics.median(ps):.1f}x faster than ipykernel (goal >= 5x)")
    print(f"round trip: proflens takes {statistics.median(pr)/statistics.median(yr):.2f} of ipykernel's (goal <= 0.5)")


if __name__ == "__main__":
    main()
