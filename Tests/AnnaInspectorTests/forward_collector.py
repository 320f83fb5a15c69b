#!/usr/bin/env python3
"""The real collector anna-inspect forwards to, in the forwarding tests: records every
POST as it arrived (path, Content-Type, Content-Encoding, Authorization, body in base64)
and answers 200 {"success": true}; with "stall" as its second argument, it answers
each POST only after 30 seconds (an upstream that hangs). GET /received lists them in
arrival order. Prints "PORT <n>" once listening on 127.0.0.1."""
import base64, json, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STALL = len(sys.argv) > 2 and sys.argv[2] == "stall"
lock = threading.Lock()
received = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            received.append({"path": self.path, "contentType": self.headers.get("Content-Type"),
                             "contentEncoding": self.headers.get("Content-Encoding"),
                             "authorization": self.headers.get("Authorization"),
                             "body": base64.b64encode(body).decode()})
        if STALL:
            time.sleep(30)
        self.answer(200, b'{"success":true}')

    def do_GET(self):
        with lock:
            data = json.dumps(received).encode()
        self.answer(200, data)

    def answer(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
print("PORT", server.server_address[1], flush=True)
server.serve_forever()
