"""NpcdClient: one channel to npcd, its admin calls, and game streams (GameStream).

Admin calls wait for the daemon's next tick (the tick thread answers them), so a deadline
must be at least one tick (0.1 s at the default 10 ticks/s); a call that ends with
DEADLINE_EXCEEDED may still take effect at that tick."""
import grpc

from .backoff import Backoff
from .game_stream import GameStream
from .stubs import load_stubs


class NpcdError(Exception):
    """A refused admin call: `code` (grpc.StatusCode) and the daemon's `details`."""

    def __init__(self, method, code, details):
        super().__init__(f"{method}: {code.name}: {details}")
        self.method, self.code, self.details = method, code, details


class NpcdClient:
    """target "host:port"; token: the daemon's bearer token; root_certs: PEM bytes for TLS
    (plaintext without); deadline_s: admin call deadline (>= one tick); backoff: a
    Backoff for game streams (defaults: 0.2 s doubling up to 10 s, half jittered)."""

    def __init__(self, target, token=None, root_certs=None, deadline_s=5.0, backoff=None):
        self.pb, self._rpc = load_stubs()
        credentials = grpc.ssl_channel_credentials(root_certs) if root_certs else None
        self.channel = (grpc.secure_channel(target, credentials) if credentials
                        else grpc.insecure_channel(target))
        self.stub = self._rpc.NpcSimStub(self.channel)
        self._token, self._deadline_s = token, deadline_s
        self._backoff = backoff

    def metadata(self):
        return [("authorization", "Bearer " + self._token)] if self._token else []

    def open_stream(self, **handlers):
        """A started GameStream; handlers (on_welcome=..., on_action=...) may be set here."""
        stream = GameStream(self.stub, self.pb, self.metadata, self._backoff or Backoff())
        for name, handler in handlers.items():
            if not hasattr(stream, name):
                raise TypeError(f"open_stream: unknown handler {name}")
            setattr(stream, name, handler)
        return stream.start()

    def close(self):
        self.channel.close()

    # Admin calls; a refusal raises NpcdError (NOT_FOUND, INVALID_ARGUMENT, ...).

    def spawn_agent(self, agent):
        return self._call("SpawnAgent", self.pb.SpawnAgentRequest(agent=agent)).id

    def despawn_agent(self, agent_id):
        self._call("DespawnAgent", self.pb.DespawnAgentRequest(id=agent_id))

    def get_agent(self, agent_id):
        """The GetAgent reply (its `json` field is the debug view)."""
        return self._call("GetAgent", self.pb.GetAgentRequest(id=agent_id))

    def get_stats(self):
        return self._call("GetStats", self.pb.GetStatsRequest())

    def send_signal(self, **signal):
        self._call("SendSignal", self.pb.SendSignalRequest(signal=self.pb.Signal(**signal)))

    def set_behavior_variable(self, agent, name, value):
        self._call("SetBehaviorVariable",
                   self.pb.SetBehaviorVariableRequest(agent=agent, name=name, value=value))

    def set_sensors(self, agent, **sensors):
        self._call("SetSensors", self.pb.SetSensorsRequest(agent=agent, **sensors))

    def get_stealth_meter(self, player):
        return self._call("GetStealthMeter", self.pb.GetStealthMeterRequest(player=player))

    def wake_place(self, place, delay_s=0.0):
        self._call("WakePlace", self.pb.WakePlaceRequest(place=place, delay_s=delay_s))

    def program_intention(self, agent, action, params=(), delay_s=0.0):
        """Programs an action on an agent's intentions; returns the intention id."""
        request = self.pb.ProgramIntentionRequest(agent=agent, action=action,
                                                  params=list(params), delay_s=delay_s)
        return self._call("ProgramIntention", request).intention

    def cancel_intention(self, agent, intention):
        self._call("CancelIntention",
                   self.pb.CancelIntentionRequest(agent=agent, intention=intention))

    def add_influence(self, agent, influence):
        self._call("AddInfluence", self.pb.AddInfluenceRequest(agent=agent, influence=influence))

    def remove_influence(self, agent, influence):
        self._call("RemoveInfluence",
                   self.pb.RemoveInfluenceRequest(agent=agent, influence=influence))

    def set_planner_value(self, **request):
        self._call("SetPlannerValue", self.pb.SetPlannerValueRequest(**request))

    def get_plan_trace(self, **request):
        return self._call("GetPlanTrace", self.pb.GetPlanTraceRequest(**request))

    def reload_definitions(self):
        return self._call("ReloadDefinitions", self.pb.ReloadDefinitionsRequest())

    def _call(self, method, request):
        try:
            return getattr(self.stub, method)(request, metadata=self.metadata(),
                                              timeout=self._deadline_s)
        except grpc.RpcError as error:
            raise NpcdError(method, error.code(), error.details() or "") from None
