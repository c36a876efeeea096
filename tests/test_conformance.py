"""Jupyter's own conformance suite (jupyter_kernel_test) against the installed
proflens kernel, with every attribute set so nothing is skipped.

Run: JUPYTER_PATH=<prefix>/share/jupyter /usr/bin/python3 -m unittest -v tests/test_conformance.py
(`make test` installs a fresh kernelspec and does this.)
"""

import os
import subprocess
import unittest

import jupyter_kernel_test

PROFLENS = os.environ.get("PROFLENS_BIN", os.path.join(os.path.dirname(__file__), "..", "bin", "proflens"))


def proflens_version():
    """What `proflens version` prints: the `version` command must match it."""
    return subprocess.run([PROFLENS, "version"], check=True, capture_output=True, text=True).stdout.strip()


class ProflensKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "proflens"
    language_name = "proflens"
    file_extension = ".plens"

    code_hello_world = "echo hello, world"
    code_stderr = "echo stream=stderr oops"

    completion_samples = [{"text": "ech", "matches": {"echo"}}]
    complete_code_samples = ["echo hi", "version", "help echo"]
    incomplete_code_samples = ['echo "unclosed', "echo hi \\"]
    invalid_code_samples = ["frobnicate now"]

    code_page_something = "echo?"
    code_generate_error = "frobnicate"
    code_execute_result = [{"code": "version", "result": proflens_version()}]
    code_display_data = [{"code": "help", "mime": "text/markdown"}]

    code_history_pattern = "vers*"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "echo"
    code_clear_output = "clear"


if __name__ == "__main__":
    unittest.main()
