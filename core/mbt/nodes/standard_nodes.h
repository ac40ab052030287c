// Registration of the standard MBT nodes (BT-REFERENCE.md §2a–2b), one function per file.
// MbtLibrary calls registerMbtStandardNodes(); the node classes themselves are private to
// their files and reached only through the factory.
#pragma once

namespace npc {

class MbtNodeFactory;

void registerMbtCompositeNodes(MbtNodeFactory& factory);     // Sequence Selector Parallel
void registerMbtPriorityNode(MbtNodeFactory& factory);       // Priority (+ Case)
void registerMbtStateMachineNode(MbtNodeFactory& factory);   // StateMachine (+ State)
void registerMbtDecoratorNodes(MbtNodeFactory& factory);     // Loop LoopUntilSuccess
    // SuppressFailure RandomGate IfCondition GroupScope LimitConcurrentUsers
void registerMbtConditionNodes(MbtNodeFactory& factory);     // AssertCondition
    // MonitorCondition IfTime WaitUntilTime AssertTime
void registerMbtLeafNodes(MbtNodeFactory& factory);          // Wait Timeout WaitForEvent Fail
    // Halt Log Breakpoint SendEvent SendTransitionEvent Signal SendSignal SendTransitionSignal
    // SetBehaviorVariable
void registerMbtLuaNodes(MbtNodeFactory& factory);           // ExecuteLua AssertLua LuaGate
                                                             // LuaWrapper OnSignal
void registerMbtActionNodes(MbtNodeFactory& factory);        // Move Shoot Animate ... Action
void registerMbtQueryTpsNode(MbtNodeFactory& factory);       // QueryTPS
void registerMbtCanReachNode(MbtNodeFactory& factory);       // CanReach
void registerMbtPlanNodes(MbtNodeFactory& factory);          // Plan ExecutePlan (GOAP)

inline void registerMbtStandardNodes(MbtNodeFactory& factory) {
  registerMbtCompositeNodes(factory);
  registerMbtPriorityNode(factory);
  registerMbtStateMachineNode(factory);
  registerMbtDecoratorNodes(factory);
  registerMbtConditionNodes(factory);
  registerMbtLeafNodes(factory);
  registerMbtLuaNodes(factory);
  registerMbtActionNodes(factory);
  registerMbtQueryTpsNode(factory);
  registerMbtCanReachNode(factory);
  registerMbtPlanNodes(factory);
}

}  // namespace npc
