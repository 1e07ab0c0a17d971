"""A whole site on bunny.net from zero in one `pulumi up`: examples/site (program.ts) in Python, through the
provider plugin pulumi-resource-bunnynet and its SDK, pulumi_bunnynet. The same resources, names and inputs; the
site's files and media are those of examples/site, by relative path (the `publicFolder` and `mediaFolder` config).
What each resource is for is said once, in examples/site/program.ts."""

import hashlib
import os

import pulumi
import pulumi_bunnynet as bunnynet

config = pulumi.Config()
domain = config.get("domain") or "site.example"
prefix = config.get("prefix") or "demo"
api_token = config.get_secret("apiToken") or pulumi.Output.secret("change-me")
public_folder = config.get("publicFolder") or "../site/public"
media_folder = config.get("mediaFolder") or "../site/media"

zone = bunnynet.DnsZone("zone", domain=domain)
storage = bunnynet.StorageZone("files", name=f"{prefix}-files", region="DE", custom404_file_path="/404.html")
content = bunnynet.StorageFolder("content", storage_zone_id=storage.storage_zone_id, source=public_folder)
cdn = bunnynet.PullZone("cdn", name=f"{prefix}-cdn", origin=bunnynet.PullZoneOriginArgs(storage_zone_id=storage.storage_zone_id))

www = bunnynet.DnsRecord("www-record", dns_zone_id=zone.dns_zone_id, type="CNAME", name="www", value=cdn.cdn_hostname)
hostname = bunnynet.PullZoneHostname(
    "www",
    pull_zone_id=cdn.pull_zone_id,
    hostname=f"www.{domain}",
    tls="free",
    force_ssl=True,
    opts=pulumi.ResourceOptions(depends_on=[www]),
)

shield = bunnynet.ShieldZone(
    "shield",
    pull_zone_id=cdn.pull_zone_id,
    plan_type=bunnynet.ShieldPlanType.ADVANCED,
    custom_pages=bunnynet.ShieldZoneCustomPagesArgs(
        block=f"<!doctype html><title>Blocked</title><p>This request was blocked. Write to security@{domain} if you think it should not be.</p>",
    ),
)
# The request variables are the API's names (REQUEST_URI…): given as a dict, they keep them.
bunnynet.RateLimitRule(
    "api-limit",
    shield_zone_id=shield.shield_zone_id,
    name="api limit",
    configuration=bunnynet.RateLimitConfigurationArgs(
        variable_types={"REQUEST_URI": ""},
        operator_type=bunnynet.RuleOperator.BEGINSWITH,
        value="/api",
        request_count=100,
        timeframe=bunnynet.RateLimitTimeframe.PER_ONE_MINUTE,
        block_time=bunnynet.RateLimitBlockTime.FOR_FIVE_MINUTES,
    ),
)
bunnynet.WafRule(
    "admin-only-office",
    shield_zone_id=shield.shield_zone_id,
    name="admin only from the office",
    conditions=[
        bunnynet.RateLimitConditionArgs(variable_types={"REQUEST_URI": ""}, operator_type=bunnynet.RuleOperator.BEGINSWITH, value="/admin"),
        bunnynet.RateLimitConditionArgs(variable_types={"REMOTE_ADDR": ""}, operator_type=bunnynet.RuleOperator.STREQ, value="198.51.100.7", is_negated=True),
    ],
    action=bunnynet.WafRuleAction.BLOCK,
)
bunnynet.AccessList(
    "blocked-countries",
    shield_zone_id=shield.shield_zone_id,
    name="blocked countries",
    type=bunnynet.AccessListType.COUNTRY,
    entries=["KP", "RU"],
    action=bunnynet.AccessListAction.BLOCK,
)

redirect = bunnynet.EdgeRule(
    "redirect-to-www",
    pull_zone_id=cdn.pull_zone_id,
    description="CDN hostname to www",
    priority=0,
    actions=[bunnynet.EdgeRuleActionArgs(type="Redirect", parameters=[f"https://www.{domain}%{{Url.Path}}", "301"])],
    triggers=[bunnynet.EdgeRuleTriggerArgs(type="Url", patterns=[pulumi.Output.concat("https://", cdn.cdn_hostname, "/*")])],
)
headers = bunnynet.EdgeRule(
    "security-headers",
    pull_zone_id=cdn.pull_zone_id,
    description="security headers",
    priority=1,
    actions=[
        bunnynet.EdgeRuleActionArgs(type="SetResponseHeader", parameters=["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]),
        bunnynet.EdgeRuleActionArgs(type="SetResponseHeader", parameters=["X-Content-Type-Options", "nosniff"]),
        bunnynet.EdgeRuleActionArgs(type="SetResponseHeader", parameters=["X-Frame-Options", "DENY"]),
        bunnynet.EdgeRuleActionArgs(type="SetResponseHeader", parameters=["Referrer-Policy", "strict-origin-when-cross-origin"]),
    ],
    triggers=[bunnynet.EdgeRuleTriggerArgs(type="Url", patterns=["*"])],
)

code = 'export default { fetch: () => new Response("hello from the edge") };\n'
script = bunnynet.EdgeScript("edge", name=f"{prefix}-edge", type=bunnynet.EdgeScriptType.STANDALONE, code=code)
bunnynet.ScriptVariable("greeting", script_id=script.script_id, name="GREETING", default_value="hello")
bunnynet.ScriptSecret("api-token", script_id=script.script_id, name="API_TOKEN", value=api_token)

videos = bunnynet.VideoLibrary("videos", name=f"{prefix}-videos")
intro = bunnynet.StreamVideo("intro", library_id=videos.library_id, title="Intro", source=os.path.join(media_folder, "intro.mp4"))
poster = bunnynet.VideoThumbnail("poster", library_id=videos.library_id, video_id=intro.video_id, file=os.path.join(media_folder, "poster.png"))

purge = bunnynet.CachePurge(
    "purge",
    pull_zone_id=cdn.pull_zone_id,
    triggers={"files": content.checksum, "code": hashlib.sha256(code.encode()).hexdigest(), "release": config.get("release") or "1"},
    opts=pulumi.ResourceOptions(depends_on=[content, script, redirect, headers]),
)

pulumi.export("nameservers", zone.nameservers)
pulumi.export("cdnHostname", cdn.cdn_hostname)
pulumi.export("url", pulumi.Output.concat("https://", hostname.hostname))
pulumi.export("certificateExpiresAt", hostname.certificate.apply(lambda c: c.expires_at if c else None))
pulumi.export("shieldZoneId", shield.shield_zone_id)
pulumi.export("scriptId", script.script_id)
pulumi.export("videoLibraryId", videos.library_id)
pulumi.export("siteFiles", content.file_count)
pulumi.export("videoId", intro.video_id)
pulumi.export("videoLength", intro.length)
pulumi.export("thumbnailUrl", poster.thumbnail_url)
pulumi.export("purgedAt", purge.purged_at)
