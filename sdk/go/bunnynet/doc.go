// Manage bunny.net (CDN pull zones, DNS, storage, Shield, edge scripts, Stream, Magic Containers) from Pulumi.
package bunnynet
