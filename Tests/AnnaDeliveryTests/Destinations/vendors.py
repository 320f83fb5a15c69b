#!/usr/bin/env python3
"""Amplitude, Mixpanel and PostHog ingestion endpoints on loopback, each implementing
the vendor's documented contract, scripted by the tests. Usage: vendors.py <port> <key>.

Amplitude HTTP V2 (POST /2/httpapi) and Batch (POST /batch), per
https://amplitude.com/docs/apis/analytics/http-v2: body {"api_key", "events", "options"};
each event needs event_type and user_id or device_id (at least min_id_length, 5 by
default, characters); time is an integer (ms), insert_id a string. Answers 200
{"code":200,"events_ingested":n,"payload_size_bytes":b,"server_upload_time":t};
400 {"code":400,"error":…,"missing_field"|"events_with_invalid_fields"|
"events_with_missing_fields":{field:[indices]}} ingesting nothing; 413 over 1 MB;
429 {"code":429,"error":"Too many requests for some devices and users","eps_threshold":…,
"throttled_devices":{…},"throttled_users":{…},"throttled_events":[…]} when scripted.

Mixpanel /track (POST /track?strict=1), per https://developer.mixpanel.com/reference/track-event:
a JSON array of {"event","properties"}; properties need token, time, distinct_id and a
$insert_id of at most 36 [A-Za-z0-9-]; at most 255 properties; at most 2,000 events.
With strict=1 invalid records are answered 400 {"code":400,"error":…,"failed_records":
[{"index","$insert_id","field","message"}],"num_records_imported":n,"status":"Bad Request"}
and the valid ones ingested; 200 {"code":200,"num_records_imported":n,"status":"OK"}.

PostHog (POST /batch/), per https://posthog.com/docs/api/capture: {"api_key","batch"},
gzip accepted; each event needs event, distinct_id, and takes uuid and an ISO 8601
timestamp. 400 {"type":"validation_error","code":"invalid_payload","detail":…} refuses
the whole batch; 413 over 20 MB; 200 {"status":"Ok"}.

Every vendor: "rejectNumbers": [n] makes events whose properties.n (event_properties.n)
is listed invalid; "maxEvents": n answers 413 to larger requests; a script of actions
({"status": 500|503|429, "retryAfter": "1"}, {"drop": true}, {"throttle": true} for
Amplitude's 429) comes before the contract's answer. Events ingested are recorded with
their dedup id (insert_id, $insert_id, uuid).
POST /control {"script", "default", "maxEvents", "rejectNumbers", "reset"}
GET /accepted {"events": [[vendor, dedupId, name, n]], "requests", "statuses", "invalid",
"wire": [[path, contentEncoding, wireBytes, jsonBytes, events]]}
GET /bodies  every request body as it arrived (decompressed text).
Prints "PORT <n>" once listening.
"""
import gzip, json, re, sys, threading, time, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

KEY = sys.argv[2] if len(sys.argv) > 2 else "test-key"
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
INSERT_ID = re.compile(r"^[A-Za-z0-9-]{1,36}$")
lock = threading.Lock()
state = {"script": [], "default": {"status": 200}, "maxEvents": None, "rejectNumbers": [], "events": [],
         "requests": 0, "statuses": {}, "invalid": [], "bodies": [], "wire": []}
VIEW = ("events", "requests", "statuses", "invalid", "wire")


def amplitude(body, reject):
    if not isinstance(body, dict):
        return 400, {"code": 400, "error": "Invalid request body"}, []
    if body.get("api_key") != KEY:
        return 400, {"code": 400, "error": "Invalid API key: " + str(body.get("api_key")), "missing_field": "api_key"}, []
    events = body.get("events")
    if not isinstance(events, list):
        return 400, {"code": 400, "error": "Request missing required field", "missing_field": "events"}, []
    min_id = (body.get("options") or {}).get("min_id_length", 5)
    invalid, missing = {}, {}
    for index, event in enumerate(events):
        if not isinstance(event.get("event_type"), str) or not event["event_type"]:
            missing.setdefault("event_type", []).append(index)
        ids = [event.get(k) for k in ("user_id", "device_id") if event.get(k) is not None]
        if not ids:
            missing.setdefault("device_id", []).append(index)
        elif any(not isinstance(i, str) or len(i) < min_id for i in ids):
            invalid.setdefault("user_id" if event.get("user_id") is not None else "device_id", []).append(index)
        for name, kind in (("time", int), ("session_id", int), ("insert_id", str), ("event_properties", dict),
                           ("user_properties", dict)):
            if name in event and not isinstance(event[name], kind):
                invalid.setdefault(name, []).append(index)
        if (event.get("event_properties") or {}).get("n") in reject:
            invalid.setdefault("event_properties", []).append(index)
    if invalid or missing:
        answer = {"code": 400, "error": "Request missing required field" if missing else "Invalid field values on some events"}
        if invalid:
            answer["events_with_invalid_fields"] = invalid
        if missing:
            answer["events_with_missing_fields"] = missing
        return 400, answer, []
    ingested = [("amplitude", e.get("insert_id"), e["event_type"], (e.get("event_properties") or {}).get("n")) for e in events]
    return 200, {"code": 200, "events_ingested": len(events), "payload_size_bytes": 0,
                 "server_upload_time": int(time.time() * 1000)}, ingested


def mixpanel(body, reject, strict):
    if not isinstance(body, list):
        return 400, {"code": 400, "error": "data must be a JSON array", "status": "Bad Request"}, []
    if len(body) > 2000:
        return 400, {"code": 400, "error": "too many events: at most 2000 per request", "status": "Bad Request"}, []
    failed, ingested = [], []
    for index, event in enumerate(body):
        properties = event.get("properties") if isinstance(event, dict) else None
        problem = None
        if not isinstance(event.get("event") if isinstance(event, dict) else None, str):
            problem = ("event", "'event' must be a string")
        elif not isinstance(properties, dict):
            problem = ("properties", "'properties' must be an object")
        elif properties.get("token") != KEY:
            problem = ("properties.token", "invalid token")
        elif not isinstance(properties.get("time"), int):
            problem = ("properties.time", "'properties.time' is invalid")
        elif not isinstance(properties.get("distinct_id"), str):
            problem = ("properties.distinct_id", "'properties.distinct_id' must be a string")
        elif not INSERT_ID.match(str(properties.get("$insert_id", ""))):
            problem = ("properties.$insert_id", "'$insert_id' must be at most 36 alphanumeric characters or '-'")
        elif len(properties) > 255:
            problem = ("properties", "more than 255 properties")
        elif properties.get("n") in reject:
            problem = ("properties.n", "value rejected")
        if problem:
            failed.append({"index": index, "$insert_id": (properties or {}).get("$insert_id", ""),
                           "field": problem[0], "message": problem[1]})
        else:
            ingested.append(("mixpanel", properties["$insert_id"], event["event"], properties.get("n")))
    if failed:
        if not strict:
            return 200, 1, ingested
        return 400, {"code": 400, "error": "some data points in the request failed validation", "failed_records": failed,
                     "num_records_imported": len(ingested), "status": "Bad Request"}, ingested
    return 200, ({"code": 200, "num_records_imported": len(ingested), "status": "OK"} if strict else 1), ingested


def posthog(body, reject):
    def invalid(detail):
        return 400, {"type": "validation_error", "code": "invalid_payload", "detail": detail, "attr": None}, []
    if not isinstance(body, dict) or not isinstance(body.get("batch"), list):
        return invalid("Malformed request data: no batch")
    if body.get("api_key") != KEY:
        return 401, {"type": "authentication_error", "code": "invalid_api_key", "detail": "Project API key invalid."}, []
    ingested = []
    for event in body["batch"]:
        if not isinstance(event.get("event"), str) or not event["event"]:
            return invalid("Invalid payload: All events must have the event name field 'event'!")
        if not isinstance(event.get("distinct_id"), str) or not event["distinct_id"]:
            return invalid("Invalid payload: All events must have a distinct_id")
        if "timestamp" in event and not ISO.match(str(event["timestamp"])):
            return invalid("Invalid payload: timestamp")
        if "uuid" in event and not re.match(r"^[0-9a-f-]{36}$", str(event["uuid"])):
            return invalid("Invalid payload: uuid")
        if not isinstance(event.get("properties", {}), dict):
            return invalid("Invalid payload: properties")
        if len(json.dumps(event).encode()) > 1024 * 1024:
            return 413, {"type": "validation_error", "code": "payload_too_large"}, []
        if (event.get("properties") or {}).get("n") in reject:
            return invalid("Invalid payload: event rejected")
        ingested.append(("posthog", event.get("uuid"), event["event"], (event.get("properties") or {}).get("n")))
    return 200, {"status": "Ok"}, ingested


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, answer, headers=()):
        data = json.dumps(answer).encode()
        with lock:
            state["statuses"][str(status)] = state["statuses"].get(str(status), 0) + 1
        try:
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            # The client was killed while it waited (the kill tests): nobody to answer.
            self.close_connection = True

    def do_GET(self):
        with lock:
            data = state["bodies"] if self.path == "/bodies" else {key: state[key] for key in VIEW}
            text = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        url = urlparse(self.path)
        if url.path == "/control":
            command = json.loads(raw or b"{}")
            with lock:
                if command.get("reset"):
                    state.update(events=[], requests=0, statuses={}, invalid=[], bodies=[], wire=[])
                for key in ("script", "default", "maxEvents", "rejectNumbers"):
                    if key in command:
                        state[key] = command[key]
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        wire_bytes = len(raw)
        encoding = self.headers.get("Content-Encoding")
        if encoding == "gzip":
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error):
                return self.reply(400, {"detail": "invalid gzip"})
        try:
            body = json.loads(raw)
        except ValueError:
            # A body cut short (a client killed while sending) is no contract violation of
            # the client's: answered 400, not recorded as invalid.
            with lock:
                state["requests"] += 1
            return self.reply(400, {"error": "invalid JSON"})
        count = len(body.get("events") or body.get("batch") or []) if isinstance(body, dict) else len(body or [])
        with lock:
            state["requests"] += 1
            action = state["script"].pop(0) if state["script"] else dict(state["default"])
            max_events, reject = state["maxEvents"], set(state["rejectNumbers"])
            state["bodies"].append(raw.decode("utf-8", "replace"))
            state["wire"].append([url.path, encoding, wire_bytes, len(raw), count])
        if action.get("drop"):
            self.close_connection = True
            self.connection.shutdown(2)
            return
        status = action.get("status", 200)
        if url.path in ("/2/httpapi", "/batch") and action.get("throttle"):
            return self.reply(429, {"code": 429, "error": "Too many requests for some devices and users",
                                    "eps_threshold": 30, "throttled_devices": {"device": 31},
                                    "throttled_users": {"user": 31}, "throttled_events": list(range(count))})
        if status != 200:
            headers = [("Retry-After", action["retryAfter"])] if "retryAfter" in action else []
            return self.reply(status, {"error": "scripted"}, headers)
        limit = {"/2/httpapi": 1 << 20, "/batch": 20 << 20, "/track": 1 << 20, "/batch/": 20 << 20}.get(url.path)
        if limit is None:
            return self.reply(404, {"error": "not found"})
        if len(raw) > limit or (max_events is not None and count > max_events):
            return self.reply(413, {"code": 413, "error": "Payload too large"})
        if url.path in ("/2/httpapi", "/batch"):
            code, answer, ingested = amplitude(body, reject)
        elif url.path == "/track":
            code, answer, ingested = mixpanel(body, reject, parse_qs(url.query).get("strict") == ["1"])
        else:
            code, answer, ingested = posthog(body, reject)
        with lock:
            if code != 200:
                state["invalid"].append([url.path, answer])
            state["events"] += [list(event) for event in ingested]
        self.reply(code, answer)


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A client killed mid-request (the kill tests) resets its connection: not an error here.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


server = Server(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
server.daemon_threads = True
print("PORT", server.server_address[1], flush=True)
server.serve_forever()
