"""Protocol behaviour that jupyter_kernel_test does not cover, against the
installed proflens kernel: forged and replayed messages are not executed,
interrupts (message mode and SIGINT) stop a long cell, two front ends share
one kernel (the second connected through the connection file, as
`jupyter console --existing` does), shutdown stops the process, the ipc
transport works as well as tcp.

Run: JUPYTER_PATH=<prefix>/share/jupyter /usr/bin/python3 -m unittest -v tests/test_protocol.py
"""

import os
import signal
import subprocess
import tempfile
import time
import unittest
from queue import Empty

import zmq
from jupyter_client import BlockingKernelClient, KernelManager
from jupyter_client.session import Session

TIMEOUT = 10


class ProflensProtocolTests(unittest.TestCase):
    def setUp(self):
        self.km = KernelManager(kernel_name="proflens")
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=30)

    def tearDown(self):
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=False)

    def run_cell(self, code, kc=None):
        kc = kc or self.kc
        return kc.execute_interactive(code, timeout=TIMEOUT, output_hook=lambda m: None)

    def outputs_for(self, msg_id, wait=1.0, kc=None):
        """iopub messages parented to msg_id that arrive within wait seconds."""
        kc = kc or self.kc
        got, end = [], time.time() + wait
        while time.time() < end:
            try:
                m = kc.get_iopub_msg(timeout=0.1)
            except Empty:
                continue
            if m["parent_header"].get("msg_id") == msg_id:
                got.append(m)
        return got

    def raw_shell(self):
        ctx = zmq.Context.instance()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(f"{self.km.transport}://{self.km.ip}:{self.km.shell_port}")
        self.addCleanup(sock.close)
        return sock

    def test_forged_message_not_executed(self):
        forger = Session(key=b"not-the-key")
        sock = self.raw_shell()
        msg = forger.msg("execute_request", {"code": "echo forged", "silent": False})
        forger.send(sock, msg)
        self.assertEqual(self.outputs_for(msg["header"]["msg_id"]), [], "a forged message produced output")
        reply = self.run_cell("echo still serving")
        self.assertEqual(reply["content"]["status"], "ok")

    def test_unsigned_and_malformed_dropped(self):
        sock = self.raw_shell()
        sock.send_multipart([b"<IDS|MSG>", b"", b"{}", b"{}", b"{}", b'{"code": "echo x"}'])
        sock.send_multipart([b"<IDS|MSG>", b"only"])
        sock.send_multipart([b"garbage"])
        reply = self.run_cell("echo still serving")
        self.assertEqual(reply["content"]["status"], "ok")

    def test_replayed_message_not_executed(self):
        session = Session(key=self.km.session.key)
        sock = self.raw_shell()
        msg = session.msg("execute_request", {"code": "echo once", "silent": False, "store_history": True})
        frames = session.serialize(msg)
        sock.send_multipart(frames)
        first = self.outputs_for(msg["header"]["msg_id"], wait=1.5)
        sock.send_multipart(frames)
        again = self.outputs_for(msg["header"]["msg_id"], wait=1.5)
        self.assertIn("stream", [m["msg_type"] for m in first])
        self.assertEqual(again, [], "a replayed message was executed again")

    def interrupt_long_cell(self, interrupt):
        msg_id = self.kc.execute("sleep 30s")
        time.sleep(0.5)
        start = time.time()
        interrupt()
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertLess(time.time() - start, 5)
        nxt = self.run_cell("echo next")
        self.assertEqual(nxt["content"]["status"], "ok")

    def test_interrupt_message_mode(self):
        self.assertEqual(self.km.kernel_spec.interrupt_mode, "message")
        self.interrupt_long_cell(self.km.interrupt_kernel)

    def test_interrupt_sigint(self):
        self.interrupt_long_cell(lambda: self.km.signal_kernel(signal.SIGINT))

    def test_two_clients(self):
        other = BlockingKernelClient(connection_file=self.km.connection_file)
        other.load_connection_file()
        other.start_channels()
        self.addCleanup(other.stop_channels)
        other.wait_for_ready(timeout=30)
        reply = self.run_cell("echo from the console", kc=other)
        self.assertEqual(reply["content"]["status"], "ok")
        seen = [m["msg_type"] for m in self.outputs_for(reply["parent_header"]["msg_id"])]
        self.assertIn("stream", seen, "the first front end did not see the second one's output")
        reply = self.run_cell("echo from the notebook")
        self.assertEqual(reply["content"]["status"], "ok")

    def test_jupyter_console_existing(self):
        """The real `jupyter console --existing` runs cells while the notebook's client stays connected."""
        out = subprocess.run(
            ["/usr/bin/jupyter", "console", "--existing", self.km.connection_file, "--simple-prompt"],
            input="echo hello from the console\nversion\n", capture_output=True, text=True, timeout=60)
        self.assertIn("hello from the console", out.stdout)
        self.assertIn("proflens", out.stdout)
        reply = self.run_cell("echo the notebook still works")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertTrue(self.km.is_alive())

    def test_ipc_transport(self):
        """jupyter_client over ipc (unix sockets), the connection file's other transport."""
        km = KernelManager(kernel_name="proflens", transport="ipc", ip=os.path.join(tempfile.mkdtemp(), "kernel"))
        km.start_kernel()
        self.addCleanup(km.shutdown_kernel, now=True)
        kc = km.client()
        kc.start_channels()
        self.addCleanup(kc.stop_channels)
        kc.wait_for_ready(timeout=30)
        text = []
        reply = kc.execute_interactive("echo over ipc", timeout=TIMEOUT,
                                       output_hook=lambda m: text.append(m["content"].get("text", "")))
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertIn("over ipc", "".join(text))
        self.assertTrue(kc.is_alive())

    def test_shutdown_stops_process(self):
        self.km.shutdown_kernel(now=False)
        self.assertFalse(self.km.is_alive())

    def test_sigterm_exits(self):
        self.km.signal_kernel(signal.SIGTERM)
        end = time.time() + 5
        while self.km.is_alive() and time.time() < end:
            time.sleep(0.05)
        self.assertFalse(self.km.is_alive(), "the kernel did not exit on SIGTERM")

    def test_restart_new_session(self):
        before = self.kc.kernel_info(reply=True)["header"]["session"]
        self.km.restart_kernel(now=False)
        self.kc.stop_channels()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=30)
        after = self.kc.kernel_info(reply=True)["header"]["session"]
        self.assertNotEqual(before, after, "a restarted kernel must use a fresh session id")


if __name__ == "__main__":
    unittest.main()
