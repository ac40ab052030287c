// Which places a command belongs to, for a cluster node's place input streams
// (server/cluster/README.md "Inputs after a crash"): the node records each command a tick
// applies into the stream of the place it acts on, and a node that takes the place over
// after a crash applies the commands recorded after the place's last snapshot again.
//
// Only what a place's next holder can apply again is placed: commands on an agent, an
// entity or a place, sounds and signals by where they are. An action's result is not (an
// adopted place's running intentions are interrupted, so no result has anything to finish),
// nor what is daemon-wide (obstacles, tuning, definitions, clients, custody), nor what came
// relayed from another node (sounds, signals, visiting players: their arrivals stream
// keeps them).
#pragma once

#include "sim/commands.h"
#include "world/ids.h"

namespace npc {

class Simulation;

struct CommandPlaces {
  PlaceIndex first = PlaceIndex::kNone;   // kNone: the command belongs to no one place
  // An entity moved or spawned across a border: the place it goes to, where `first` is the
  // place it was in. A crash of the node that held its old place must not bring it back
  // there while the new place has it too.
  PlaceIndex second = PlaceIndex::kNone;
};

// Tick thread, just before `command` applies (Simulation::addCommandRecorder).
CommandPlaces commandPlaces(const Command& command, const Simulation& sim);

// A sound, a signal or an action on an agent: news for the moment it is made, not lasting
// state. A node applying a place's inputs again leaves out the stale ones.
bool isStimulus(const Command& command);

}  // namespace npc
