#!/usr/bin/env python3
"""A Segment-compatible batch collector on loopback, scripted by the tests.

POST /v1/batch   checks basic auth and the batch format (a body sent with
                 Content-Encoding: gzip is decompressed first; one that is not valid
                 gzip is answered 400), then answers with the
                 next scripted action (or the default): {"status": 200|400|413|429|500,
                 "retryAfter": "1"}, {"stall": seconds, "status": 200}, {"drop": true},
                 {"redirect": 302, "location": url}, {"trickle": bytes, "every": seconds}
                 (a 200 whose body comes one byte every `every` seconds).
                 "maxEvents": n answers 413 to batches of more than n events, and
                 a decompressed body over 500 KB is answered 413;
                 "rejectNumbers": [n] answers 400 to batches holding an event whose
                 properties.n is listed. Events of batches answered 200 are recorded.
POST /control    {"script": [...], "default": {...}, "maxEvents": n, "rejectNumbers": [...], "reset": bool}
                 Every call of the Segment spec is checked by its type: track (event,
                 properties), screen (name, properties), identify (traits), group
                 (groupId, traits), alias (previousId, userId).
GET  /accepted   {"events": [[messageId, event|name|type, properties.n|traits.n]], "requests": n,
                  "statuses": {...}, "maxConcurrent": n, "invalid": [...], "last": batch,
                  "arrivals": [[time, [messageId...]]] (each batch body as it arrived),
                  "hits": [[method, path, hasAuthorization, bodyBytes]] (every other request),
                  "wire": [[contentEncoding, bytesOnTheWire, jsonBytes, events]] (every batch request)}
GET  /bodies     every batch request body as it arrived (text), answered or not.
Prints "PORT <n>" once listening.
"""
import base64, gzip, json, re, sys, threading, time, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WRITE_KEY = sys.argv[2] if len(sys.argv) > 2 else "test-key"
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
lock = threading.Lock()
state = {"script": [], "default": {"status": 200}, "maxEvents": None, "rejectNumbers": [], "events": [],
         "requests": 0, "statuses": {}, "inFlight": 0, "maxConcurrent": 0, "invalid": [], "last": None,
         "arrivals": [], "hits": [], "bodies": [], "wire": []}
VIEW = ("events", "requests", "statuses", "maxConcurrent", "invalid", "last", "arrivals", "hits", "wire")


# The fields each call of the Segment HTTP Tracking API requires, and their JSON types.
FIELDS = {
    "track": [("event", str), ("properties", dict)],
    "screen": [("name", str), ("properties", dict)],
    "identify": [("traits", dict)],
    "group": [("groupId", str), ("traits", dict)],
    "alias": [("previousId", str), ("userId", str)],
}


def label(event):
    """What the events list calls an event: its name, or its type for identify, group, alias."""
    return event.get("event") or event.get("name") or event["type"]


def number(event):
    return (event.get("properties") or event.get("traits") or {}).get("n")


def problems(batch):
    found = []
    if not isinstance(batch, dict) or not isinstance(batch.get("batch"), list):
        return ["no batch array"]
    if not TIMESTAMP.match(batch.get("sentAt", "")):
        found.append("sentAt")
    for event in batch["batch"]:
        if not isinstance(event, dict) or event.get("type") not in FIELDS:
            found.append("type")
            continue
        for name, kind in FIELDS[event["type"]]:
            if not isinstance(event.get(name), kind):
                found.append(event["type"] + "." + name)
        if not isinstance(event.get("context"), dict):
            found.append("context")
        if not re.match(r"^[0-9a-f-]{36}$", event.get("messageId", "")):
            found.append("messageId")
        if not TIMESTAMP.match(event.get("timestamp", "")):
            found.append("timestamp")
        if "anonymousId" not in event and "userId" not in event:
            found.append("identity")
        if len(json.dumps(event).encode()) > 32 * 1024:
            found.append("event over 32 KB")
    return found


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def leave_flight(self):
        """A request is in flight from its arrival until its answer starts: a client
        cannot send its next request before that, whereas the handler's thread may
        finish later, after a request of another client arrived."""
        if getattr(self, "in_flight", False):
            self.in_flight = False
            with lock:
                state["inFlight"] -= 1

    def reply(self, status, body=b"{}", headers=()):
        self.leave_flight()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def hit(self, body_bytes):
        with lock:
            state["hits"].append([self.command, self.path, "Authorization" in self.headers, body_bytes])

    def do_GET(self):
        if self.path == "/bodies":
            with lock:
                data = json.dumps(state["bodies"]).encode()
            return self.reply(200, data)
        if self.path != "/accepted":
            self.hit(0)
            return self.reply(404)
        with lock:
            view = {key: state[key] for key in VIEW}
            data = json.dumps(view).encode()
        self.reply(200, data)

    def do_POST(self):
        if self.path == "/control":
            command = json.loads(self.body() or b"{}")
            with lock:
                if command.get("reset"):
                    state.update(events=[], requests=0, statuses={}, maxConcurrent=0, invalid=[], last=None,
                                 arrivals=[], hits=[], bodies=[], wire=[])
                for key in ("script", "default", "maxEvents", "rejectNumbers"):
                    if key in command:
                        state[key] = command[key]
            return self.reply(200)
        if self.path != "/v1/batch":
            self.hit(len(self.body()))
            return self.reply(404)
        with lock:
            state["inFlight"] += 1
            state["maxConcurrent"] = max(state["maxConcurrent"], state["inFlight"])
        self.in_flight = True
        try:
            self.handle_batch()
        finally:
            self.leave_flight()

    def handle_batch(self):
        raw = self.body()
        encoding = self.headers.get("Content-Encoding")
        wire_bytes = len(raw)
        if encoding == "gzip":
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error):
                with lock:
                    state["requests"] += 1
                    state["invalid"].append(["gzip"])
                return self.answer(400, note="invalid gzip")
        with lock:
            state["requests"] += 1
            action = state["script"].pop(0) if state["script"] else dict(state["default"])
            max_events = state["maxEvents"]
            reject_numbers = set(state["rejectNumbers"])
            try:
                ids = [event.get("messageId") for event in json.loads(raw)["batch"]]
            except (ValueError, KeyError, TypeError, AttributeError):
                ids = []
            state["arrivals"].append([time.time(), ids])
            state["wire"].append([encoding, wire_bytes, len(raw), len(ids)])
            state["bodies"].append(raw.decode("utf-8", "replace"))
        expected = "Basic " + base64.b64encode((WRITE_KEY + ":").encode()).decode()
        if self.headers.get("Authorization") != expected:
            return self.answer(401, action={})
        if action.get("drop"):
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if action.get("redirect"):
            return self.answer(action["redirect"], headers=[("Location", action.get("location", "/"))])
        if action.get("stall"):
            time.sleep(action["stall"])
        try:
            batch = json.loads(raw)
        except ValueError:
            return self.answer(400, note="invalid JSON")
        found = problems(batch)
        if found:
            with lock:
                state["invalid"].append(found)
            return self.answer(400, note=", ".join(sorted(set(found))))
        if len(raw) > 500 * 1024 or (max_events is not None and len(batch["batch"]) > max_events):
            return self.answer(413)
        if any(number(event) in reject_numbers for event in batch["batch"]):
            return self.answer(400, note="event rejected")
        if action.get("trickle"):
            return self.trickle(action["trickle"], action.get("every", 1))
        status = action.get("status", 200)
        if status == 200:
            with lock:
                state["last"] = batch
                for event in batch["batch"]:
                    state["events"].append([event["messageId"], label(event), number(event)])
        headers = [("Retry-After", str(action["retryAfter"]))] if "retryAfter" in action else []
        self.answer(status, headers=headers)

    def trickle(self, count, every):
        with lock:
            state["statuses"]["200"] = state["statuses"].get("200", 0) + 1
        try:
            self.leave_flight()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(count))
            self.end_headers()
            self.wfile.flush()
            for _ in range(count):
                time.sleep(every)
                self.wfile.write(b" ")
                self.wfile.flush()
        except OSError:
            pass  # the client gave up, as it should

    def answer(self, status, note="", headers=(), action=None):
        with lock:
            state["statuses"][str(status)] = state["statuses"].get(str(status), 0) + 1
        body = json.dumps({"success": status == 200, "message": note}).encode()
        try:
            self.reply(status, body, headers)
        except OSError:
            pass  # the client gave up (a stall longer than its timeout)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A client killed mid-request (the kill tests do that) resets its connection.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


if __name__ == "__main__":
    import signal
    # Started from a dispatch thread, the process inherits its blocked signals.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, set(signal.Signals))
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = Server(("127.0.0.1", port), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()
