"""Every resource and lookup of the bunnynet package in one program: the examples of docs/reference/, each page's
between its `region <Name>` and `endregion` markers (docs/reference.ts copies them there; `npm run docs`). CI deploys
it against the emulator: up, an unchanged up, destroy (tests/engine/referenceExamples.test.ts). The same program is in
TypeScript, Go and YAML beside this folder.

Config (`bunnynet-reference-python:`): `appId`, `volumeId` and `instanceId`, a volume instance of an app made
elsewhere that VolumeInstanceDeletion deletes. Files come from ../assets, relative to Pulumi.yaml."""

import pulumi
import pulumi_bunnynet as bunnynet

config = pulumi.Config()

# region DnsRecord
# region DnsZone
zone = bunnynet.DnsZone("zone", domain="example.com")
# endregion
apex = bunnynet.DnsRecord("apex", dns_zone_id=zone.dns_zone_id, type="A", name="", value="192.0.2.10", ttl=300)
# endregion

# region StorageZone
files = bunnynet.StorageZone("files", name="example-files", region="DE", custom404_file_path="/404.html")
# endregion

# region StorageFolder
# Every file under ../assets/public, uploaded to the zone's root; an up sends only the files that changed.
content = bunnynet.StorageFolder("content", storage_zone_id=files.storage_zone_id, source="../assets/public")
# endregion

# region StorageFile
robots = bunnynet.StorageFile(
    "robots",
    storage_zone_id=files.storage_zone_id,
    path="robots.txt",
    content="User-agent: *\nAllow: /\n",
    content_type="text/plain",
)
# endregion

# region PullZone
# A pull zone serving the storage zone `files`.
cdn = bunnynet.PullZone("cdn", name="example-cdn", origin={"storage_zone_id": files.storage_zone_id})
# The same zone read without being managed, by its `id` (the id `pulumi import` takes; a string in every SDK).
cdn_read = bunnynet.PullZone.get("cdn-read", cdn.id)
# endregion

# region PullZoneHostname
# www.example.com points at the pull zone (a record in `zone`), then gets a free certificate.
www_record = bunnynet.DnsRecord("www-record", dns_zone_id=zone.dns_zone_id, type="CNAME", name="www", value=cdn.cdn_hostname)
www = bunnynet.PullZoneHostname(
    "www",
    pull_zone_id=cdn.pull_zone_id,
    hostname="www.example.com",
    tls="free",
    force_ssl=True,
    opts=pulumi.ResourceOptions(depends_on=[www_record]),
)
# endregion

# region EdgeRule
headers = bunnynet.EdgeRule(
    "security-headers",
    pull_zone_id=cdn.pull_zone_id,
    description="security headers",
    actions=[
        {"type": "SetResponseHeader", "parameters": ["X-Content-Type-Options", "nosniff"]},
        {"type": "SetResponseHeader", "parameters": ["X-Frame-Options", "DENY"]},
    ],
    triggers=[{"type": "Url", "patterns": ["*"]}],
)
# Every plain-HTTP request redirected to HTTPS.
force_https = bunnynet.EdgeRule(
    "force-https",
    pull_zone_id=cdn.pull_zone_id,
    description="HTTP to HTTPS",
    actions=[{"type": "ForceSSL"}],
    triggers=[{"type": "Url", "patterns": ["http://*"]}],
)
# endregion

# region OptimizerClass
# Images under the pull zone resized with `?class=thumbnail`.
thumbnail_class = bunnynet.OptimizerClass("thumbnail", pull_zone_id=cdn.pull_zone_id, name="thumbnail", width=320, height=180, quality=80)
# endregion

# region ShieldZone
shield = bunnynet.ShieldZone("shield", pull_zone_id=cdn.pull_zone_id, plan_type=bunnynet.ShieldPlanType.ADVANCED, waf_enabled=True)
# endregion

# region WafRule
admin_only = bunnynet.WafRule(
    "admin-only",
    shield_zone_id=shield.shield_zone_id,
    name="admin only from the office",
    conditions=[
        {"variable_types": {"REQUEST_URI": ""}, "operator_type": bunnynet.RuleOperator.BEGINSWITH, "value": "/admin"},
        {"variable_types": {"REMOTE_ADDR": ""}, "operator_type": bunnynet.RuleOperator.STREQ, "value": "198.51.100.7", "is_negated": True},
    ],
    action=bunnynet.WafRuleAction.BLOCK,
)
# endregion

# region RateLimitRule
api_limit = bunnynet.RateLimitRule(
    "api-limit",
    shield_zone_id=shield.shield_zone_id,
    name="api limit",
    configuration={
        "variable_types": {"REQUEST_URI": ""},
        "operator_type": bunnynet.RuleOperator.BEGINSWITH,
        "value": "/api",
        "request_count": 100,
        "timeframe": bunnynet.RateLimitTimeframe.PER_ONE_MINUTE,
        "block_time": bunnynet.RateLimitBlockTime.FOR_FIVE_MINUTES,
    },
)
# endregion

# region AccessList
blocked_countries = bunnynet.AccessList(
    "blocked-countries",
    shield_zone_id=shield.shield_zone_id,
    name="blocked countries",
    type=bunnynet.AccessListType.COUNTRY,
    entries=["KP", "RU"],
    action=bunnynet.AccessListAction.BLOCK,
)
# endregion

# region EdgeScript
script = bunnynet.EdgeScript(
    "edge",
    name="example-edge",
    type="Standalone",
    code='export default { fetch: () => new Response("hello from the edge") };\n',
)
# endregion

# region ScriptVariable
greeting = bunnynet.ScriptVariable("greeting", script_id=script.script_id, name="GREETING", default_value="hello")
# endregion

# region ScriptSecret
api_token = bunnynet.ScriptSecret(
    "api-token",
    script_id=script.script_id,
    name="API_TOKEN",
    value=config.get_secret("apiToken") or pulumi.Output.secret("change-me"),
)
# endregion

# region VideoLibrary
videos = bunnynet.VideoLibrary("videos", name="example-videos")
# endregion

# region StreamCollection
tutorials = bunnynet.StreamCollection("tutorials", library_id=videos.library_id, name="Tutorials")
# endregion

# region StreamVideo
# Uploaded from a local file; `up` waits until the video plays.
intro = bunnynet.StreamVideo(
    "intro",
    library_id=videos.library_id,
    collection_id=tutorials.collection_id,
    title="Intro",
    source="../assets/intro.mp4",
)
# endregion

# region VideoThumbnail
poster = bunnynet.VideoThumbnail("poster", library_id=videos.library_id, video_id=intro.video_id, file="../assets/poster.png")
# endregion

# region ContainerRegistry
ghcr = bunnynet.ContainerRegistry(
    "ghcr",
    type="GitHub",
    username="example-bot",
    password=config.get_secret("ghcrToken") or pulumi.Output.secret("not-a-real-token"),
)
# endregion

# region ContainerApp
# region getContainerRegistry
# Docker Hub's public registry, which every account has.
docker_hub = bunnynet.get_container_registry_output(type="DockerHub")
# endregion
app = bunnynet.ContainerApp(
    "app",
    name="example-app",
    regions={"allowed": ["DE", "UK"], "required": ["DE"]},
    autoscaling={"min": 1, "max": 2},
    containers={
        "web": {
            "image": {"registry_id": docker_hub.registry_id, "namespace": "library", "name": "nginx", "tag": "1.27"},
            "env": {"LOG_LEVEL": "info"},
            "endpoints": {"direct": {"type": "anycast", "ports": [{"container": 80, "exposed": 80}]}},
        },
    },
)
# endregion

# region getAppEndpoints
endpoints = bunnynet.get_app_endpoints_output(app_id=app.app_id)
# endregion

# region getContainerAppContainer
web = bunnynet.get_container_app_container_output(app_id=app.app_id, name="web")
# endregion

# region VolumeInstanceDeletion
# Deletes one instance of a volume of an app made elsewhere (ids from the stack's config), detaching the volume first.
# Runs once; deleting this resource deletes nothing.
old_instance = bunnynet.VolumeInstanceDeletion(
    "old-instance",
    app_id=config.require("appId"),
    volume_id=config.require("volumeId"),
    instance_id=config.require("instanceId"),
    detach_first=True,
)
# endregion

# region Database
db = bunnynet.Database("db", name="example-db", primary_regions=["DE"], replica_regions=["NY"])
# endregion

# region TeamMember
member = bunnynet.TeamMember("ops", email="ops@example.com", first_name="Ada", last_name="Lovelace", permissions=["zones", "support"])
# endregion

# region CachePurge
# Purges the pull zone's cache whenever the uploaded files change.
purge = bunnynet.CachePurge(
    "purge",
    pull_zone_id=cdn.pull_zone_id,
    triggers={"files": content.checksum},
    opts=pulumi.ResourceOptions(depends_on=[content, robots]),
)
# endregion

# region getDnsZone
zone_by_domain = bunnynet.get_dns_zone_output(domain=zone.domain)
# endregion

# region getDnsRecord
www_by_name = bunnynet.get_dns_record_output(dns_zone_id=www_record.dns_zone_id, name=www_record.name, type="CNAME")
# endregion

# region getPullZone
cdn_by_name = bunnynet.get_pull_zone_output(name=cdn.name)
# endregion

# region getCdnLogs
server_errors = bunnynet.get_cdn_logs_output(pull_zone_id=cdn.pull_zone_id, status=["5xx"], max_entries=20)
# endregion

# region getCdnRegions
europe = bunnynet.get_cdn_regions_output(continent_code="EU")
# endregion

# region getAccessLists
access_lists = bunnynet.get_access_lists_output(shield_zone_id=shield.shield_zone_id)
# endregion

# region getRegions
regions = bunnynet.get_regions_output(has_capacity=True)
# endregion

# region getVideoLanguages
languages = bunnynet.get_video_languages_output()
# endregion

# region getApiKeys
api_keys = bunnynet.get_api_keys_output()
# endregion

pulumi.export("nameservers", zone.nameservers)
pulumi.export("apexRecordId", apex.record_id)
pulumi.export("storageZoneId", files.storage_zone_id)
pulumi.export("siteFiles", content.file_count)
pulumi.export("robotsChecksum", robots.checksum)
pulumi.export("url", pulumi.Output.concat("https://", www.hostname))
pulumi.export("edgeRuleId", headers.edge_rule_id)
pulumi.export("forceHttpsRuleId", force_https.edge_rule_id)
pulumi.export("cdnReadName", cdn_read.name)
pulumi.export("optimizerClass", thumbnail_class.name)
pulumi.export("wafRuleId", admin_only.rule_id)
pulumi.export("rateLimitRuleId", api_limit.rule_id)
pulumi.export("accessListId", blocked_countries.access_list_id)
pulumi.export("greetingId", greeting.variable_id)
pulumi.export("apiTokenId", api_token.secret_id)
pulumi.export("videoLength", intro.length)
pulumi.export("thumbnailUrl", poster.thumbnail_url)
pulumi.export("ghcrRegistryId", ghcr.registry_id)
pulumi.export("appStatus", app.status)
pulumi.export("appPublicHosts", endpoints.public_hosts)
pulumi.export("webImage", web.image)
pulumi.export("deletedInstance", old_instance.deleted_instance_id)
pulumi.export("databaseId", db.database_id)
pulumi.export("memberId", member.member_id)
pulumi.export("purgedAt", purge.purged_at)
pulumi.export("zoneRecordCount", zone_by_domain.record_count)
pulumi.export("wwwTarget", www_by_name.value)
pulumi.export("cdnHostname", cdn_by_name.cdn_hostname)
pulumi.export("serverErrors", server_errors.entries.apply(len))
pulumi.export("europeRegions", europe.region_codes)
pulumi.export("customAccessLists", access_lists.custom_lists.apply(len))
pulumi.export("storageRegions", regions.ids)
pulumi.export("videoLanguages", languages.codes.apply(len))
pulumi.export("apiKeyCount", api_keys.keys.apply(len))
