// Package fleet puts the pulse on MQTT and reads it back: a Publisher beside
// each watchdog's pulse, and a View that follows every agent on a broker and
// judges their presence (the Heart paper, sections 3.1 and 8).
//
// Topics, under a prefix (default "heart"):
//
//	<prefix>/<agent>/state             a Pulse, retained, each pulse
//	<prefix>/<agent>/alerts            an Alert, QoS 1, not retained
//	<prefix>/_watchdog/<host>/<name>   "online", or the last will "offline"; retained
//
// Caveats:
//   - The broker is never in the pulse's way. Publishing runs on its own
//     goroutine; while the broker is away, each agent keeps only its newest
//     state (sent at once on reconnect) and alerts are dropped. Both are
//     counted, never queued without bound.
//   - Agent names are topic levels: the characters + # / %, and control
//     characters, are percent-encoded, so two names never share a topic;
//     but two machines with agents of the same name do (the newest state
//     wins). Give agents names unique in the fleet.
//   - Retained messages expire after a day (MQTT 5 message expiry): live
//     agents renew theirs each pulse; those of agents and processes gone
//     for a day leave the broker instead of piling up with each restart.
//   - Nothing received changes an agent: there are no commands over MQTT.
//     The View only reads.
//   - A View trusts topics, not payloads: a member is its topic, and a state
//     or alert whose agent is not its topic's is refused. Only a broker ACL
//     letting each watchdog write just its own agents' and presence topics
//     keeps one peer from speaking for another (docs/security.md). What a
//     View keeps is bounded: MaxPayload per message (also asked of the
//     broker as the MQTT 5 maximum packet size), DefaultMaxMembers agents,
//     and members silent for EvictAfter are forgotten.
//   - Presence is judged on the View's clock: an agent is offline after 3 of
//     its own pulse intervals without a state, or at once when its watchdog's
//     last will arrives. A retained state older than that reads as offline.
package fleet
