"""A minimal Chrome DevTools Protocol driver for tests: real headless Chromium, one
websocket (aiohttp), pages as flattened target sessions.

`Chromium.start(user_data_dir)` launches /usr/bin/chromium in its own process group with
`--remote-debugging-port=0` and reads the port from `<user-data-dir>/DevToolsActivePort`;
`close()` kills the whole group. The websocket is read by an asyncio loop in a thread, so
events (console messages, exceptions, network requests) are collected while the test
thread waits; every call has a bounded timeout, so a hung browser fails the test with a
message instead of hanging the suite. Nothing here touches anything but 127.0.0.1 and the
files the test names.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import aiohttp

CHROMIUM = "/usr/bin/chromium"
INSTALL_HINT = (
    "install Debian's Chromium: apt-get install -y --no-install-recommends chromium (.ci/run does this when /usr/bin/chromium is missing)"
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
)
START_TIMEOUT_S = 30.0
CALL_TIMEOUT_S = 15.0


class BrowserError(AssertionError):
    """Chromium did not start, did not answer in time, or answered with an error."""


def find_chromium() -> str | None:
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return f"({path} unreadable)"


@dataclass
class Page:
    """One tab, attached as a flattened session on the browser's websocket."""

    browser: "Chromium"
    target_id: str
    session_id: str
    events: list[dict[str, Any]] = field(default_factory=list)

    def send(self, method: str, params: Mapping[str, Any] | None = None, timeout: float = CALL_TIMEOUT_S) -> dict[str, Any]:
        return self.browser.send(method, params, session_id=self.session_id, timeout=timeout)

    def wait_for(self, method: str, timeout: float = CALL_TIMEOUT_S, after: int = 0) -> dict[str, Any]:
        """The first event `method` at index >= `after` of this page's events."""
        return self.browser.wait_for(
            lambda: next((e for e in self.events[after:] if e["method"] == method), None), f"event {method}", timeout
        )

    def navigate(self, url: str, timeout: float = CALL_TIMEOUT_S) -> None:
        mark = len(self.events)
        answer = self.send("Page.navigate", {"url": url}, timeout)
        if answer.get("errorText"):
            raise BrowserError(f"navigating to {url}: {answer['errorText']}")
        self.wait_for("Page.loadEventFired", timeout, after=mark)

    def evaluate(self, expression: str) -> Any:
        answer = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in answer:
            raise BrowserError(f"evaluating {expression!r}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def poll(self, expression: str, what: str, timeout: float = 5.0) -> Any:
        """Evaluate `expression` until it is truthy; its value, or a failure naming `what`."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"no {what} within {timeout:.0f} s (last value {value!r})")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A real mouse click (pressed + released) at the centre of the first element matching
        `selector`, scrolled into view first; fails when it is missing or not displayed."""
        box = self.evaluate(
            f"(function(){{var el=document.querySelector({_js(selector)});if(!el)return null;"
            "el.scrollIntoView({block:'center'});var r=el.getBoundingClientRect();"
            "return {x:r.left+r.width/2,y:r.top+r.height/2,w:r.width,h:r.height};})()"
        )
        if box is None:
            raise BrowserError(f"no element matches {selector!r}")
        if not (box["w"] > 0 and box["h"] > 0):
            raise BrowserError(f"{selector!r} is not displayed (box {box})")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box["x"], "y": box["y"], "button": "left", "clickCount": 1})

    def screenshot(self) -> bytes:
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])

    def problems(self) -> list[str]:
        """JavaScript exceptions and console/log errors seen so far, one line each."""
        out = []
        for e in self.events:
            p = e.get("params") or {}
            if e["method"] == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails") or {}
                out.append(f"exception: {(d.get('exception') or {}).get('description') or d.get('text')}")
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(f"console.{p['type']}: {[a.get('value', a.get('description')) for a in p.get('args', [])]}")
            elif e["method"] == "Log.entryAdded" and (p.get("entry") or {}).get("level") == "error":
                out.append(f"log error: {p['entry'].get('text')} ({p['entry'].get('url', '')})")
        return out

    def requests(self) -> list[str]:
        """Every URL the page asked for (CDP Network.requestWillBeSent), in order."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def close(self) -> None:
        try:
            self.browser.send("Target.closeTarget", {"targetId": self.target_id}, timeout=5)
        except BrowserError:
            pass


def _js(value: str) -> str:
    return json.dumps(value)


class Chromium:
    """Headless Chromium with the DevTools protocol on a free loopback port."""

    def __init__(self, process: subprocess.Popen, log: Path):
        self.process, self.log = process, log
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._pages: dict[str, Page] = {}
        self._changed = threading.Condition()
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._session: aiohttp.ClientSession | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def start(cls, user_data_dir: Path, *, executable: str | None = None, timeout: float = START_TIMEOUT_S) -> "Chromium":
        executable = executable or find_chromium()
        if executable is None:
            raise BrowserError(f"Chromium not found at {CHROMIUM} or on PATH: {INSTALL_HINT}")
        user_data_dir.mkdir(parents=True, exist_ok=True)
        port_file = user_data_dir / "DevToolsActivePort"
        port_file.unlink(missing_ok=True)  # a stale one from an earlier browser names a dead port
        log = user_data_dir.parent / f"{user_data_dir.name}.log"
        handle = open(log, "ab")
        process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={user_data_dir}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=handle,
            stderr=handle,
            start_new_session=True,
        )
        handle.close()
        browser = cls(process, log)
        try:
            deadline = time.monotonic() + timeout
            lines: list[str] = []
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    raise BrowserError(f"Chromium exited with {process.returncode} before it listened; {log}:\n{_tail(log)}")
                if port_file.is_file():
                    lines = port_file.read_text().split()
                    if len(lines) >= 2:
                        break
                time.sleep(0.05)
            else:
                raise BrowserError(f"Chromium wrote no {port_file} within {timeout:.0f} s; {log}:\n{_tail(log)}")
            browser._run(browser._connect(f"ws://127.0.0.1:{int(lines[0])}{lines[1]}"), timeout)
            return browser
        except BaseException:
            browser.close()
            raise

    def close(self) -> None:
        """Kill the browser's process group (and reap it) and stop the websocket loop."""
        try:
            if self._session is not None:
                self._run(self._disconnect(), 5)
        except BaseException:
            pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.process.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                self.process.wait(3)
                break
            except subprocess.TimeoutExpired:
                continue
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # helpers (renderer, zygote) that outlived the parent
        except (ProcessLookupError, PermissionError):
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    # ------------------------------------------------------------------ protocol

    async def _connect(self, url: str) -> None:
        self._session = aiohttp.ClientSession()
        self._ws = await self._session.ws_connect(url, max_msg_size=0, timeout=aiohttp.ClientWSTimeout(ws_close=5))
        self._loop.create_task(self._reader())

    async def _disconnect(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._session is not None:
            await self._session.close()

    async def _reader(self) -> None:
        assert self._ws is not None
        async for message in self._ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = message.json()
            if "id" in data:
                future = self._pending.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            else:
                page = self._pages.get(data.get("sessionId", ""))
                if page is not None:
                    with self._changed:
                        page.events.append(data)
                        self._changed.notify_all()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(BrowserError(f"the DevTools websocket closed; {self.log}:\n{_tail(self.log)}"))

    async def _call(self, method: str, params: Mapping[str, Any] | None, session_id: str | None) -> dict[str, Any]:
        assert self._ws is not None
        ident = next(self._ids)
        future = self._loop.create_future()
        self._pending[ident] = future
        message: dict[str, Any] = {"id": ident, "method": method, "params": dict(params or {})}
        if session_id:
            message["sessionId"] = session_id
        await self._ws.send_json(message)
        return await future

    def _run(self, coroutine, timeout: float):
        future = asyncio.run_coroutine_threadsafe(asyncio.wait_for(coroutine, timeout), self._loop)
        try:
            return future.result(timeout + 1)
        except (asyncio.TimeoutError, TimeoutError):
            future.cancel()
            raise BrowserError(f"Chromium did not answer within {timeout:.0f} s; {self.log}:\n{_tail(self.log)}") from None

    def send(
        self, method: str, params: Mapping[str, Any] | None = None, *, session_id: str | None = None, timeout: float = CALL_TIMEOUT_S
    ) -> dict[str, Any]:
        if self.process.poll() is not None:
            raise BrowserError(f"Chromium exited with {self.process.returncode}; {self.log}:\n{_tail(self.log)}")
        answer = self._run(self._call(method, params, session_id), timeout)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error']}")
        return answer.get("result") or {}

    def wait_for(self, found: Callable[[], Any], what: str, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = found()
                if value is not None:
                    return value
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise BrowserError(f"no {what} within {timeout:.0f} s; {self.log}:\n{_tail(self.log)}")
                self._changed.wait(min(left, 0.2))

    def new_page(self, width: int = 1280, height: int = 900) -> Page:
        """A blank tab with Page, Runtime, Log and Network events on, at a fixed viewport."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, target, session)
        self._pages[session] = page
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.send(f"{domain}.enable")
        page.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return page
