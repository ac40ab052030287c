"""GameStream: the game server's Connect stream, on a thread of its own.

It numbers and sends WorldUpdates, calls the handlers with what the daemon sends, and when
the stream ends without close() it reconnects after a backoff delay. Handlers run on the
stream's thread; keep them short (queue work for the game loop):

  on_welcome(welcome)        a stream (re)opened: the client id owning the agents it
                             creates. Send the world state here: after a reconnect the
                             daemon knows the agents, not what changed while it was down.
  on_action(action)          perform it, then report complete(), fail() or progress()
  on_event(event)            intention events, behaviors, errors naming the update's seq
  on_stored(seq)             cluster: this client's updates up to seq are in Redis
                             (ServerMessage.stored_seq); keep later ones to send again to
                             a place's next holder if its node dies
  on_disconnected(code, details)   the stream ended (UNAVAILABLE when npcd stops)
  on_reconnecting(attempt, delay_s)
"""
import queue
import threading

import grpc

_END = object()


class GameStream:
    def __init__(self, stub, pb, metadata, backoff):
        self._stub, self._pb, self._metadata, self._backoff = stub, pb, metadata, backoff
        self._lock = threading.Lock()  # guards _outbox, _welcome, _seq, _subscription
        self._outbox = None
        self._welcome = None
        self._subscription = None
        self._seq = 0
        self._stored_seq = 0
        self._call = None
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="npcd-stream", daemon=True)
        self.on_welcome = self.on_action = self.on_event = self.on_message = self.on_stored = None
        self.on_disconnected = self.on_reconnecting = None

    def start(self):
        self._thread.start()
        return self

    @property
    def connected(self):
        return self._welcome is not None

    @property
    def stored_seq(self):
        """Cluster: the highest seq of this client's updates the daemon has in Redis (0 alone,
        or before the first is stored)."""
        return self._stored_seq

    @property
    def client_id(self):
        welcome = self._welcome
        return welcome.client_id if welcome is not None else None

    def send(self, **fields):
        """Sends a WorldUpdate made of `fields`, numbered with the next seq (errors about it
        echo it). Returns the seq, or None when no stream is open (resend on welcome)."""
        with self._lock:
            if self._outbox is None or self._welcome is None:
                return None
            self._seq += 1
            self._outbox.put(self._pb.WorldUpdate(seq=self._seq, **fields))
            return self._seq

    def upsert(self, *entities):
        """Creates or updates entities; NPCs created here are owned by this stream."""
        return self.send(upserts=list(entities))

    def remove(self, *ids):
        return self.send(removals=list(ids))

    def subscribe(self, subscription):
        """Replaces the subscription; kept and sent again on every reconnect."""
        self._subscription = subscription
        return self.send(subscribe=subscription)

    def complete(self, action):
        return self._result(action, "OUTCOME_COMPLETED", 0.0, "")

    def fail(self, action, reason):
        return self._result(action, "OUTCOME_FAILED", 0.0, reason)

    def progress(self, action, fraction):
        """Progress 0..1; each report restarts the action's timeout in the daemon."""
        return self._result(action, "OUTCOME_PROGRESS", min(1.0, max(0.0, fraction)), "")

    def close(self, timeout_s=5.0):
        """Ends the stream for good (no reconnect) and waits for its thread."""
        self._closed.set()
        with self._lock:
            if self._outbox is not None:
                self._outbox.put(_END)  # half-close: the daemon then ends the stream
        call = self._call
        if call is not None and self._thread.is_alive():
            self._thread.join(1.0)
            call.cancel()
        if self._thread.is_alive():
            self._thread.join(timeout_s)

    def _result(self, action, outcome, progress, reason):
        result = self._pb.ActionResult(agent=action.agent, intention=action.intention,
                                       outcome=self._pb.ActionResult.Outcome.Value(outcome),
                                       progress=progress, reason=reason)
        return self.send(results=[result])

    def _requests(self, outbox):
        while True:
            update = outbox.get()
            if update is _END:
                return
            yield update

    def _run(self):
        while not self._closed.is_set():
            outbox = queue.Queue()
            with self._lock:
                self._outbox = outbox
                if self._subscription is not None:
                    self._seq += 1
                    outbox.put(self._pb.WorldUpdate(seq=self._seq, subscribe=self._subscription))
            code, details = grpc.StatusCode.OK, ""
            try:
                self._call = self._stub.Connect(self._requests(outbox), metadata=self._metadata())
                for message in self._call:
                    self._receive(message)
            except grpc.RpcError as error:
                code, details = error.code(), error.details() or ""
            with self._lock:
                self._outbox = None
                self._welcome = None
            outbox.put(_END)  # ends this call's request iterator
            self._call = None
            if self._closed.is_set():
                return
            self._notify(self.on_disconnected, code, details)
            delay_s = self._backoff.next()
            self._notify(self.on_reconnecting, self._backoff.attempts, delay_s)
            self._closed.wait(delay_s)

    def _receive(self, message):
        if message.HasField("welcome") and self._welcome is None:
            with self._lock:
                self._welcome = message.welcome
            self._backoff.reset()
            self._notify(self.on_welcome, message.welcome)
        if message.stored_seq > self._stored_seq:
            self._stored_seq = message.stored_seq
            self._notify(self.on_stored, message.stored_seq)
        self._notify(self.on_message, message)
        for action in message.actions:
            self._notify(self.on_action, action)
        for event in message.events:
            self._notify(self.on_event, event)

    @staticmethod
    def _notify(handler, *args):
        if handler is not None:
            handler(*args)
