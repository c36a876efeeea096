"""Protocol behaviour that jupyter_kernel_test does not cover, against the
installed proflens kernel: forged and replayed messages are not executed,
interrupts (message mode and SIGINT) stop a long cell, two front ends share
one kernel (the second connected through the connection file, as
`jupyter console --existing` does), shutdown stops the process, the ipc
transport works as well as tcp.

Run: JUPYTER_PATH=<prefix>/share/jupyter /usr/bin/python3 -m unittest -v tests/test_protocol.py
"""

import os
import re
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

    def reply_to(self, msg_id, timeout):
        """The shell reply to msg_id, skipping replies to earlier requests:
        wait_for_ready sends kernel_info again when a reply is slow to come,
        and the reply to the first can arrive after it returned."""
        end = time.time() + timeout
        while True:
            reply = self.kc.get_shell_msg(timeout=max(0.01, end - time.time()))
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply

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
        reply = self.reply_to(msg_id, TIMEOUT)
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

    def comm_request(self, content, buffers=None):
        """Sends a comm_msg and returns the comm messages that answer it, up to idle."""
        msg = self.kc.session.msg("comm_msg", content)
        self.kc.session.send(self.kc.shell_channel.socket, msg, buffers=buffers)
        got = []
        for m in self.until_idle(msg["header"]["msg_id"]):
            if m["msg_type"] in ("comm_msg", "comm_close", "comm_open"):
                got.append(m)
        return got

    def until_idle(self, msg_id):
        got, end = [], time.time() + TIMEOUT
        while time.time() < end:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                return got
            got.append(m)
        self.fail(f"no idle for {msg_id}")

    def cell_text(self, code):
        text = []
        self.kc.execute_interactive(code, timeout=TIMEOUT, output_hook=lambda m: text.append(m["content"].get("data", {}).get("text/plain", "")))
        return "".join(text)

    def widget(self):
        """Runs show interactive=true and returns its comm_open and display_data."""
        self.run_cell("load demo:profvis-toy as toy\nlevel 1")
        msg_id = self.kc.execute("show toy interactive=true")
        msgs = self.until_idle(msg_id)
        opens = [m for m in msgs if m["msg_type"] == "comm_open"]
        shows = [m for m in msgs if m["msg_type"] == "display_data"]
        self.assertEqual((len(opens), len(shows)), (1, 1), [m["msg_type"] for m in msgs])
        return opens[0], shows[0]

    def test_comm_info_and_unknown_target(self):
        reply = self.kc.comm_info(reply=True)
        self.assertEqual(reply["content"], {"status": "ok", "comms": {}})
        msg = self.kc.session.msg("comm_open", {"comm_id": "c-unknown", "target_name": "no.such.target", "data": {}})
        self.kc.shell_channel.send(msg)
        got = self.until_idle(msg["header"]["msg_id"])
        self.assertEqual([(m["msg_type"], m["content"]["comm_id"]) for m in got if m["msg_type"] != "status"], [("comm_close", "c-unknown")])

    def test_widget_state_round_trip(self):
        """A view's widget: comm_open with the anywidget model and the
        protocol version, displayed with the picture as fallback; its state
        comes back whole on request_state; a click (custom message) expands
        the sector in the kernel, which the next cell shows; comm_info and
        the control comm list it."""
        opened, shown = self.widget()
        comm_id = opened["content"]["comm_id"]
        state = opened["content"]["data"]["state"]
        self.assertEqual(opened["content"]["target_name"], "jupyter.widget")
        self.assertEqual(opened["metadata"], {"version": "2.1.0"})
        self.assertEqual((state["_model_name"], state["_view_name"], state["_model_module"]), ("AnyModel", "AnyView", "anywidget"))
        self.assertIn("export default", state["_esm"])
        data = shown["content"]["data"]
        self.assertEqual(data["application/vnd.jupyter.widget-view+json"]["model_id"], comm_id)
        self.assertIn("data:image/svg+xml;base64,", data["text/html"])
        got = self.comm_request({"comm_id": comm_id, "data": {"method": "request_state"}})
        self.assertEqual(len(got), 1)
        self.assertEqual(got[0]["content"]["data"]["method"], "update")
        self.assertEqual(got[0]["content"]["data"]["state"]["html"], state["html"])
        handle = re.search(r'<g class="pl-n[^"]*" id="r-([0-9a-f-]+)"', state["html"]).group(1)
        before = self.cell_text("view toy")
        got = self.comm_request({"comm_id": comm_id, "data": {"method": "custom", "content": {"event": "click", "id": "r-" + handle}}})
        updates = [m["content"]["data"] for m in got if m["content"]["data"]["method"] == "update"]
        self.assertTrue(updates, [m["content"] for m in got])
        self.assertEqual(updates[-1]["state"]["clicks"], [f"expand toy {handle}"])
        self.assertEqual(updates[-1]["state"]["error"], "")
        after = self.cell_text("view toy")
        self.assertNotEqual(before, after, "the click did not change the view the next cell shows")
        self.assertIn(comm_id, self.kc.comm_info(target_name="jupyter.widget", reply=True)["content"]["comms"])
        ctl = self.kc.session.msg("comm_open", {"comm_id": "ctl-1", "target_name": "jupyter.widget.control", "data": {}})
        self.kc.shell_channel.send(ctl)
        self.assertEqual([m for m in self.until_idle(ctl["header"]["msg_id"]) if m["msg_type"] == "comm_close"], [])
        got = self.comm_request({"comm_id": "ctl-1", "data": {"method": "request_states"}})
        states = got[0]["content"]["data"]["states"]
        self.assertEqual(states[comm_id]["model_name"], "AnyModel")
        self.assertEqual(states[comm_id]["state"]["clicks"], [f"expand toy {handle}"])

    def test_comm_oversized_and_malformed(self):
        """Comm messages that are too large, malformed or for no comm are
        refused (the kernel answers nothing but busy and idle) and the
        widget goes on answering."""
        opened, _ = self.widget()
        comm_id = opened["content"]["comm_id"]
        for content, buffers in [
            ({"comm_id": comm_id, "data": {"method": "custom", "content": {"x": "x" * (9 << 20)}}}, None),
            ({"comm_id": comm_id, "data": {"method": "custom", "content": {}}}, [b"x" * (5 << 20), b"y" * (5 << 20)]),
            ({"comm_id": comm_id, "data": "not an object"}, None),
            ({"data": {}}, None),
            ({"comm_id": comm_id, "data": {"method": "update", "state": {"_esm": "x"}}}, None),
            ({"comm_id": comm_id, "data": {"method": "update", "state": {}, "buffer_paths": [["a"]]}}, None),
            ({"comm_id": "no-such-comm", "data": {"method": "custom", "content": {}}}, None),
        ]:
            self.assertEqual(self.comm_request(content, buffers), [], content.get("data"))
        got = self.comm_request({"comm_id": comm_id, "data": {"method": "request_state"}})
        self.assertEqual(got[0]["content"]["data"]["state"]["_esm"], opened["content"]["data"]["state"]["_esm"])


if __name__ == "__main__":
    unittest.main()
