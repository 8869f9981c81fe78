/**
 * The one Minecraft protocol version the connector and its test server pin (docs/connectors.md).
 * flying-squid 1.12.0 and mineflayer 4.39.0 both list 1.21.4 as tested, and it is measured working
 * offline on loopback in docs/spec/shared-live-room-requirements.md §23.2.
 */
export const MINECRAFT_PROTOCOL_VERSION = '1.21.4';
