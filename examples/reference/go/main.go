// Every resource and lookup of the bunnynet package in one program: the examples of docs/reference/, each page's
// between its `region <Name>` and `endregion` markers (docs/reference.ts copies them there; `npm run docs`). CI deploys
// it against the emulator: up, an unchanged up, destroy (tests/engine/referenceExamples.test.ts). The same program is
// in TypeScript, Python and YAML beside this folder.
//
// Config (`bunnynet-reference-go:`): `appId`, `volumeId` and `instanceId`, a volume instance of an app made elsewhere
// that VolumeInstanceDeletion deletes. Files come from ../assets, relative to Pulumi.yaml.
package main

import (
	"github.com/bunnynet-pulumi/bunnynet-pulumi/sdk/go/bunnynet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		// region DnsRecord
		// region DnsZone
		zone, err := bunnynet.NewDnsZone(ctx, "zone", &bunnynet.DnsZoneArgs{Domain: pulumi.String("example.com")})
		if err != nil {
			return err
		}
		// endregion
		apex, err := bunnynet.NewDnsRecord(ctx, "apex", &bunnynet.DnsRecordArgs{
			DnsZoneId: zone.DnsZoneId,
			Type:      pulumi.String("A"),
			Name:      pulumi.String(""),
			Value:     pulumi.String("192.0.2.10"),
			Ttl:       pulumi.Int(300),
		})
		if err != nil {
			return err
		}
		// endregion

		// region StorageZone
		files, err := bunnynet.NewStorageZone(ctx, "files", &bunnynet.StorageZoneArgs{
			Name:              pulumi.String("example-files"),
			Region:            bunnynet.StorageZoneRegionDE,
			Custom404FilePath: pulumi.String("/404.html"),
		})
		if err != nil {
			return err
		}
		// endregion

		// region StorageFolder
		// Every file under ../assets/public, uploaded to the zone's root; an up sends only the files that changed.
		content, err := bunnynet.NewStorageFolder(ctx, "content", &bunnynet.StorageFolderArgs{StorageZoneId: files.StorageZoneId, Source: pulumi.String("../assets/public")})
		if err != nil {
			return err
		}
		// endregion

		// region StorageFile
		robots, err := bunnynet.NewStorageFile(ctx, "robots", &bunnynet.StorageFileArgs{
			StorageZoneId: files.StorageZoneId,
			Path:          pulumi.String("robots.txt"),
			Content:       pulumi.String("User-agent: *\nAllow: /\n"),
			ContentType:   pulumi.String("text/plain"),
		})
		if err != nil {
			return err
		}
		// endregion

		// region PullZone
		// A pull zone serving the storage zone `files`.
		cdn, err := bunnynet.NewPullZone(ctx, "cdn", &bunnynet.PullZoneArgs{
			Name:   pulumi.String("example-cdn"),
			Origin: &bunnynet.PullZoneOriginArgs{StorageZoneId: files.StorageZoneId},
		})
		if err != nil {
			return err
		}
		// The same zone read without being managed, by its ID (the id `pulumi import` takes).
		cdnRead, err := bunnynet.GetPullZone(ctx, "cdn-read", cdn.ID(), nil)
		if err != nil {
			return err
		}
		// endregion

		// region PullZoneHostname
		// www.example.com points at the pull zone (a record in `zone`), then gets a free certificate.
		wwwRecord, err := bunnynet.NewDnsRecord(ctx, "www-record", &bunnynet.DnsRecordArgs{
			DnsZoneId: zone.DnsZoneId,
			Type:      pulumi.String("CNAME"),
			Name:      pulumi.String("www"),
			Value:     cdn.CdnHostname,
		})
		if err != nil {
			return err
		}
		www, err := bunnynet.NewPullZoneHostname(ctx, "www", &bunnynet.PullZoneHostnameArgs{
			PullZoneId: cdn.PullZoneId,
			Hostname:   pulumi.String("www.example.com"),
			Tls:        pulumi.String("free"),
			ForceSsl:   pulumi.Bool(true),
		}, pulumi.DependsOn([]pulumi.Resource{wwwRecord}))
		if err != nil {
			return err
		}
		// endregion

		// region EdgeRule
		headers, err := bunnynet.NewEdgeRule(ctx, "security-headers", &bunnynet.EdgeRuleArgs{
			PullZoneId:  cdn.PullZoneId,
			Description: pulumi.String("security headers"),
			Actions: bunnynet.EdgeRuleActionArray{
				&bunnynet.EdgeRuleActionArgs{Type: pulumi.String("SetResponseHeader"), Parameters: pulumi.StringArray{pulumi.String("X-Content-Type-Options"), pulumi.String("nosniff")}},
				&bunnynet.EdgeRuleActionArgs{Type: pulumi.String("SetResponseHeader"), Parameters: pulumi.StringArray{pulumi.String("X-Frame-Options"), pulumi.String("DENY")}},
			},
			Triggers: bunnynet.EdgeRuleTriggerArray{
				&bunnynet.EdgeRuleTriggerArgs{Type: pulumi.String("Url"), Patterns: pulumi.StringArray{pulumi.String("*")}},
			},
		})
		if err != nil {
			return err
		}
		// Every plain-HTTP request redirected to HTTPS.
		forceHttps, err := bunnynet.NewEdgeRule(ctx, "force-https", &bunnynet.EdgeRuleArgs{
			PullZoneId:  cdn.PullZoneId,
			Description: pulumi.String("HTTP to HTTPS"),
			Actions:     bunnynet.EdgeRuleActionArray{&bunnynet.EdgeRuleActionArgs{Type: bunnynet.EdgeRuleActionTypeForceSSL}},
			Triggers: bunnynet.EdgeRuleTriggerArray{
				&bunnynet.EdgeRuleTriggerArgs{Type: bunnynet.EdgeRuleTriggerTypeUrl, Patterns: pulumi.StringArray{pulumi.String("http://*")}},
			},
		})
		if err != nil {
			return err
		}
		// endregion

		// region OptimizerClass
		// Images under the pull zone resized with `?class=thumbnail`.
		thumbnailClass, err := bunnynet.NewOptimizerClass(ctx, "thumbnail", &bunnynet.OptimizerClassArgs{
			PullZoneId: cdn.PullZoneId,
			Name:       pulumi.String("thumbnail"),
			Width:      pulumi.Int(320),
			Height:     pulumi.Int(180),
			Quality:    pulumi.Int(80),
		})
		if err != nil {
			return err
		}
		// endregion

		// region ShieldZone
		shield, err := bunnynet.NewShieldZone(ctx, "shield", &bunnynet.ShieldZoneArgs{
			PullZoneId: cdn.PullZoneId,
			PlanType:   bunnynet.ShieldPlanTypeAdvanced,
			WafEnabled: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		// endregion

		// region WafRule
		adminOnly, err := bunnynet.NewWafRule(ctx, "admin-only", &bunnynet.WafRuleArgs{
			ShieldZoneId: shield.ShieldZoneId,
			Name:         pulumi.String("admin only from the office"),
			Conditions: bunnynet.RateLimitConditionArray{
				&bunnynet.RateLimitConditionArgs{
					VariableTypes: pulumi.StringMap{"REQUEST_URI": pulumi.String("")},
					OperatorType:  bunnynet.RuleOperatorBEGINSWITH,
					Value:         pulumi.String("/admin"),
				},
				&bunnynet.RateLimitConditionArgs{
					VariableTypes: pulumi.StringMap{"REMOTE_ADDR": pulumi.String("")},
					OperatorType:  bunnynet.RuleOperatorSTREQ,
					Value:         pulumi.String("198.51.100.7"),
					IsNegated:     pulumi.Bool(true),
				},
			},
			Action: bunnynet.WafRuleActionBlock,
		})
		if err != nil {
			return err
		}
		// endregion

		// region RateLimitRule
		apiLimit, err := bunnynet.NewRateLimitRule(ctx, "api-limit", &bunnynet.RateLimitRuleArgs{
			ShieldZoneId: shield.ShieldZoneId,
			Name:         pulumi.String("api limit"),
			Configuration: &bunnynet.RateLimitConfigurationArgs{
				VariableTypes: pulumi.StringMap{"REQUEST_URI": pulumi.String("")},
				OperatorType:  bunnynet.RuleOperatorBEGINSWITH,
				Value:         pulumi.String("/api"),
				RequestCount:  pulumi.Int(100),
				Timeframe:     bunnynet.RateLimitTimeframePerOneMinute,
				BlockTime:     bunnynet.RateLimitBlockTimeForFiveMinutes,
			},
		})
		if err != nil {
			return err
		}
		// endregion

		// region AccessList
		blockedCountries, err := bunnynet.NewAccessList(ctx, "blocked-countries", &bunnynet.AccessListArgs{
			ShieldZoneId: shield.ShieldZoneId,
			Name:         pulumi.String("blocked countries"),
			Type:         bunnynet.AccessListTypeEnumCountry,
			Entries:      pulumi.StringArray{pulumi.String("KP"), pulumi.String("RU")},
			Action:       bunnynet.AccessListActionBlock,
		})
		if err != nil {
			return err
		}
		// endregion

		// region EdgeScript
		script, err := bunnynet.NewEdgeScript(ctx, "edge", &bunnynet.EdgeScriptArgs{
			Name: pulumi.String("example-edge"),
			Type: bunnynet.EdgeScriptTypeStandalone,
			Code: pulumi.String("export default { fetch: () => new Response(\"hello from the edge\") };\n"),
		})
		if err != nil {
			return err
		}
		// endregion

		// region ScriptVariable
		greeting, err := bunnynet.NewScriptVariable(ctx, "greeting", &bunnynet.ScriptVariableArgs{
			ScriptId:     script.ScriptId,
			Name:         pulumi.String("GREETING"),
			DefaultValue: pulumi.String("hello"),
		})
		if err != nil {
			return err
		}
		// endregion

		// region ScriptSecret
		// The stack's secret config `apiToken` (`pulumi config set --secret apiToken …`), else a placeholder, as a secret.
		token, err := cfg.TrySecret("apiToken")
		if err != nil {
			token = pulumi.ToSecret(pulumi.String("change-me")).(pulumi.StringOutput)
		}
		apiToken, err := bunnynet.NewScriptSecret(ctx, "api-token", &bunnynet.ScriptSecretArgs{
			ScriptId: script.ScriptId,
			Name:     pulumi.String("API_TOKEN"),
			Value:    token,
		})
		if err != nil {
			return err
		}
		// endregion

		// region VideoLibrary
		videos, err := bunnynet.NewVideoLibrary(ctx, "videos", &bunnynet.VideoLibraryArgs{Name: pulumi.String("example-videos")})
		if err != nil {
			return err
		}
		// endregion

		// region StreamCollection
		tutorials, err := bunnynet.NewStreamCollection(ctx, "tutorials", &bunnynet.StreamCollectionArgs{LibraryId: videos.LibraryId, Name: pulumi.String("Tutorials")})
		if err != nil {
			return err
		}
		// endregion

		// region StreamVideo
		// Uploaded from a local file; `up` waits until the video plays.
		intro, err := bunnynet.NewStreamVideo(ctx, "intro", &bunnynet.StreamVideoArgs{
			LibraryId:    videos.LibraryId,
			CollectionId: tutorials.CollectionId,
			Title:        pulumi.String("Intro"),
			Source:       pulumi.String("../assets/intro.mp4"),
		})
		if err != nil {
			return err
		}
		// endregion

		// region VideoThumbnail
		poster, err := bunnynet.NewVideoThumbnail(ctx, "poster", &bunnynet.VideoThumbnailArgs{
			LibraryId: videos.LibraryId,
			VideoId:   intro.VideoId,
			File:      pulumi.String("../assets/poster.png"),
		})
		if err != nil {
			return err
		}
		// endregion

		// region ContainerRegistry
		// The stack's secret config `ghcrToken`, else a placeholder, as a secret.
		ghcrToken, err := cfg.TrySecret("ghcrToken")
		if err != nil {
			ghcrToken = pulumi.ToSecret(pulumi.String("not-a-real-token")).(pulumi.StringOutput)
		}
		ghcr, err := bunnynet.NewContainerRegistry(ctx, "ghcr", &bunnynet.ContainerRegistryArgs{
			Type:     bunnynet.ContainerRegistryTypeGitHub,
			Username: pulumi.String("example-bot"),
			Password: ghcrToken,
		})
		if err != nil {
			return err
		}
		// endregion

		// region ContainerApp
		// region getContainerRegistry
		// Docker Hub's public registry, which every account has.
		dockerHub := bunnynet.LookupContainerRegistryOutput(ctx, bunnynet.LookupContainerRegistryOutputArgs{Type: bunnynet.GetContainerRegistryTypeDockerHub})
		// endregion
		app, err := bunnynet.NewContainerApp(ctx, "app", &bunnynet.ContainerAppArgs{
			Name:        pulumi.String("example-app"),
			Regions:     &bunnynet.ContainerAppRegionsArgs{Allowed: pulumi.StringArray{pulumi.String("DE"), pulumi.String("UK")}, Required: pulumi.StringArray{pulumi.String("DE")}},
			Autoscaling: &bunnynet.ContainerAppAutoscalingArgs{Min: pulumi.Int(1), Max: pulumi.Int(2)},
			Containers: bunnynet.ContainerAppContainerMap{
				"web": &bunnynet.ContainerAppContainerArgs{
					Image: &bunnynet.ContainerAppImageArgs{RegistryId: dockerHub.RegistryId(), Namespace: pulumi.String("library"), Name: pulumi.String("nginx"), Tag: pulumi.String("1.27")},
					Env:   pulumi.StringMap{"LOG_LEVEL": pulumi.String("info")},
					Endpoints: bunnynet.ContainerAppEndpointMap{
						"direct": &bunnynet.ContainerAppEndpointArgs{
							Type:  bunnynet.ContainerAppEndpointTypeAnycast,
							Ports: bunnynet.ContainerAppPortArray{&bunnynet.ContainerAppPortArgs{Container: pulumi.Int(80), Exposed: pulumi.Int(80)}},
						},
					},
				},
			},
		})
		if err != nil {
			return err
		}
		// endregion

		// region getAppEndpoints
		endpoints := bunnynet.GetAppEndpointsOutput(ctx, bunnynet.GetAppEndpointsOutputArgs{AppId: app.AppId})
		// endregion

		// region getContainerAppContainer
		web := bunnynet.GetContainerAppContainerOutput(ctx, bunnynet.GetContainerAppContainerOutputArgs{AppId: app.AppId, Name: pulumi.String("web")})
		// endregion

		// region VolumeInstanceDeletion
		// Deletes one instance of a volume of an app made elsewhere (ids from the stack's config), detaching the volume
		// first. Runs once; deleting this resource deletes nothing.
		oldInstance, err := bunnynet.NewVolumeInstanceDeletion(ctx, "old-instance", &bunnynet.VolumeInstanceDeletionArgs{
			AppId:       pulumi.String(cfg.Require("appId")),
			VolumeId:    pulumi.String(cfg.Require("volumeId")),
			InstanceId:  pulumi.String(cfg.Require("instanceId")),
			DetachFirst: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		// endregion

		// region Database
		db, err := bunnynet.NewDatabase(ctx, "db", &bunnynet.DatabaseArgs{
			Name:           pulumi.String("example-db"),
			PrimaryRegions: pulumi.StringArray{pulumi.String("DE")},
			ReplicaRegions: pulumi.StringArray{pulumi.String("NY")},
		})
		if err != nil {
			return err
		}
		// endregion

		// region TeamMember
		member, err := bunnynet.NewTeamMember(ctx, "ops", &bunnynet.TeamMemberArgs{
			Email:       pulumi.String("ops@example.com"),
			FirstName:   pulumi.String("Ada"),
			LastName:    pulumi.String("Lovelace"),
			Permissions: pulumi.StringArray{bunnynet.TeamMemberPermissionsItemZones, bunnynet.TeamMemberPermissionsItemSupport},
		})
		if err != nil {
			return err
		}
		// endregion

		// region CachePurge
		// Purges the pull zone's cache whenever the uploaded files change.
		purge, err := bunnynet.NewCachePurge(ctx, "purge", &bunnynet.CachePurgeArgs{
			PullZoneId: cdn.PullZoneId,
			Triggers:   pulumi.Map{"files": content.Checksum},
		}, pulumi.DependsOn([]pulumi.Resource{content, robots}))
		if err != nil {
			return err
		}
		// endregion

		// region getDnsZone
		zoneByDomain := bunnynet.LookupDnsZoneOutput(ctx, bunnynet.LookupDnsZoneOutputArgs{Domain: zone.Domain})
		// endregion

		// region getDnsRecord
		wwwByName := bunnynet.LookupDnsRecordOutput(ctx, bunnynet.LookupDnsRecordOutputArgs{DnsZoneId: wwwRecord.DnsZoneId, Name: wwwRecord.Name, Type: pulumi.String("CNAME")})
		// endregion

		// region getPullZone
		cdnByName := bunnynet.LookupPullZoneOutput(ctx, bunnynet.LookupPullZoneOutputArgs{Name: cdn.Name})
		// endregion

		// region getCdnLogs
		serverErrors := bunnynet.GetCdnLogsOutput(ctx, bunnynet.GetCdnLogsOutputArgs{
			PullZoneId: cdn.PullZoneId,
			Status:     pulumi.Array{pulumi.String("5xx")},
			MaxEntries: pulumi.Float64(20),
		})
		// endregion

		// region getCdnRegions
		europe := bunnynet.GetCdnRegionsOutput(ctx, bunnynet.GetCdnRegionsOutputArgs{ContinentCode: pulumi.String("EU")})
		// endregion

		// region getAccessLists
		accessLists := bunnynet.GetAccessListsOutput(ctx, bunnynet.GetAccessListsOutputArgs{ShieldZoneId: shield.ShieldZoneId})
		// endregion

		// region getRegions
		regions := bunnynet.GetRegionsOutput(ctx, bunnynet.GetRegionsOutputArgs{HasCapacity: pulumi.Bool(true)})
		// endregion

		// region getVideoLanguages
		languages := bunnynet.GetVideoLanguagesOutput(ctx, bunnynet.GetVideoLanguagesOutputArgs{})
		// endregion

		// region getApiKeys
		apiKeys := bunnynet.GetApiKeysOutput(ctx)
		// endregion

		ctx.Export("nameservers", zone.Nameservers)
		ctx.Export("apexRecordId", apex.RecordId)
		ctx.Export("storageZoneId", files.StorageZoneId)
		ctx.Export("siteFiles", content.FileCount)
		ctx.Export("robotsChecksum", robots.Checksum)
		ctx.Export("url", pulumi.Sprintf("https://%s", www.Hostname))
		ctx.Export("edgeRuleId", headers.EdgeRuleId)
		ctx.Export("forceHttpsRuleId", forceHttps.EdgeRuleId)
		ctx.Export("cdnReadName", cdnRead.Name)
		ctx.Export("optimizerClass", thumbnailClass.Name)
		ctx.Export("wafRuleId", adminOnly.RuleId)
		ctx.Export("rateLimitRuleId", apiLimit.RuleId)
		ctx.Export("accessListId", blockedCountries.AccessListId)
		ctx.Export("greetingId", greeting.VariableId)
		ctx.Export("apiTokenId", apiToken.SecretId)
		ctx.Export("videoLength", intro.Length)
		ctx.Export("thumbnailUrl", poster.ThumbnailUrl)
		ctx.Export("ghcrRegistryId", ghcr.RegistryId)
		ctx.Export("appStatus", app.Status)
		ctx.Export("appPublicHosts", endpoints.PublicHosts())
		ctx.Export("webImage", web.Image())
		ctx.Export("deletedInstance", oldInstance.DeletedInstanceId)
		ctx.Export("databaseId", db.DatabaseId)
		ctx.Export("memberId", member.MemberId)
		ctx.Export("purgedAt", purge.PurgedAt)
		ctx.Export("zoneRecordCount", zoneByDomain.RecordCount())
		ctx.Export("wwwTarget", wwwByName.Value())
		ctx.Export("cdnHostname", cdnByName.CdnHostname())
		ctx.Export("serverErrors", serverErrors.Entries().ApplyT(func(entries []bunnynet.LogEntry) int { return len(entries) }))
		ctx.Export("europeRegions", europe.RegionCodes())
		ctx.Export("customAccessLists", accessLists.CustomLists().ApplyT(func(lists []bunnynet.AccessListType) int { return len(lists) }))
		ctx.Export("storageRegions", regions.Ids())
		ctx.Export("videoLanguages", languages.Codes().ApplyT(func(codes []string) int { return len(codes) }))
		ctx.Export("apiKeyCount", apiKeys.Keys().ApplyT(func(keys []bunnynet.ApiKey) int { return len(keys) }))
		return nil
	})
}
