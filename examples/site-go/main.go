// A whole site on bunny.net from zero in one `pulumi up`: examples/site (program.ts) in Go, through the provider
// plugin pulumi-resource-bunnynet and its Go SDK. The same resources, names and inputs; the site's files and media are
// those of examples/site, by relative path (the `publicFolder` and `mediaFolder` config). What each resource is for is
// said once, in examples/site/program.ts.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/bunnynet-pulumi/bunnynet-pulumi/sdk/go/bunnynet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// or is value, else fallback when value is empty (an unset config key).
func or(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		domain := or(cfg.Get("domain"), "site.example")
		prefix := or(cfg.Get("prefix"), "demo")
		apiToken, err := cfg.TrySecret("apiToken")
		if err != nil {
			apiToken = pulumi.ToSecret(pulumi.String("change-me")).(pulumi.StringOutput)
		}
		publicFolder := or(cfg.Get("publicFolder"), "../site/public")
		mediaFolder := or(cfg.Get("mediaFolder"), "../site/media")

		zone, err := bunnynet.NewDnsZone(ctx, "zone", &bunnynet.DnsZoneArgs{Domain: pulumi.String(domain)})
		if err != nil {
			return err
		}
		storage, err := bunnynet.NewStorageZone(ctx, "files", &bunnynet.StorageZoneArgs{
			Name:              pulumi.String(prefix + "-files"),
			Region:            bunnynet.StorageZoneRegionDE,
			Custom404FilePath: pulumi.String("/404.html"),
		})
		if err != nil {
			return err
		}
		content, err := bunnynet.NewStorageFolder(ctx, "content", &bunnynet.StorageFolderArgs{StorageZoneId: storage.StorageZoneId, Source: pulumi.String(publicFolder)})
		if err != nil {
			return err
		}
		cdn, err := bunnynet.NewPullZone(ctx, "cdn", &bunnynet.PullZoneArgs{
			Name:   pulumi.String(prefix + "-cdn"),
			Origin: &bunnynet.PullZoneOriginArgs{StorageZoneId: storage.StorageZoneId},
		})
		if err != nil {
			return err
		}

		www, err := bunnynet.NewDnsRecord(ctx, "www-record", &bunnynet.DnsRecordArgs{
			DnsZoneId: zone.DnsZoneId,
			Type:      pulumi.String("CNAME"),
			Name:      pulumi.String("www"),
			Value:     cdn.CdnHostname,
		})
		if err != nil {
			return err
		}
		hostname, err := bunnynet.NewPullZoneHostname(ctx, "www", &bunnynet.PullZoneHostnameArgs{
			PullZoneId: cdn.PullZoneId,
			Hostname:   pulumi.String("www." + domain),
			Tls:        pulumi.String("free"),
			ForceSsl:   pulumi.Bool(true),
		}, pulumi.DependsOn([]pulumi.Resource{www}))
		if err != nil {
			return err
		}

		shield, err := bunnynet.NewShieldZone(ctx, "shield", &bunnynet.ShieldZoneArgs{
			PullZoneId: cdn.PullZoneId,
			PlanType:   bunnynet.ShieldPlanTypeAdvanced,
			CustomPages: &bunnynet.ShieldZoneCustomPagesArgs{
				Block: pulumi.String(fmt.Sprintf("<!doctype html><title>Blocked</title><p>This request was blocked. Write to security@%s if you think it should not be.</p>", domain)),
			},
		})
		if err != nil {
			return err
		}
		if _, err := bunnynet.NewRateLimitRule(ctx, "api-limit", &bunnynet.RateLimitRuleArgs{
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
		}); err != nil {
			return err
		}
		if _, err := bunnynet.NewWafRule(ctx, "admin-only-office", &bunnynet.WafRuleArgs{
			ShieldZoneId: shield.ShieldZoneId,
			Name:         pulumi.String("admin only from the office"),
			Conditions: bunnynet.RateLimitConditionArray{
				&bunnynet.RateLimitConditionArgs{VariableTypes: pulumi.StringMap{"REQUEST_URI": pulumi.String("")}, OperatorType: bunnynet.RuleOperatorBEGINSWITH, Value: pulumi.String("/admin")},
				&bunnynet.RateLimitConditionArgs{VariableTypes: pulumi.StringMap{"REMOTE_ADDR": pulumi.String("")}, OperatorType: bunnynet.RuleOperatorSTREQ, Value: pulumi.String("198.51.100.7"), IsNegated: pulumi.Bool(true)},
			},
			Action: bunnynet.WafRuleActionBlock,
		}); err != nil {
			return err
		}
		if _, err := bunnynet.NewAccessList(ctx, "blocked-countries", &bunnynet.AccessListArgs{
			ShieldZoneId: shield.ShieldZoneId,
			Name:         pulumi.String("blocked countries"),
			Type:         bunnynet.AccessListTypeEnumCountry,
			Entries:      pulumi.StringArray{pulumi.String("KP"), pulumi.String("RU")},
			Action:       bunnynet.AccessListActionBlock,
		}); err != nil {
			return err
		}

		redirect, err := bunnynet.NewEdgeRule(ctx, "redirect-to-www", &bunnynet.EdgeRuleArgs{
			PullZoneId:  cdn.PullZoneId,
			Description: pulumi.String("CDN hostname to www"),
			Priority:    pulumi.Int(0),
			Actions: bunnynet.EdgeRuleActionArray{
				&bunnynet.EdgeRuleActionArgs{Type: pulumi.String("Redirect"), Parameters: pulumi.StringArray{pulumi.String("https://www." + domain + "%{Url.Path}"), pulumi.String("301")}},
			},
			Triggers: bunnynet.EdgeRuleTriggerArray{
				&bunnynet.EdgeRuleTriggerArgs{Type: pulumi.String("Url"), Patterns: pulumi.StringArray{pulumi.Sprintf("https://%s/*", cdn.CdnHostname)}},
			},
		})
		if err != nil {
			return err
		}
		header := func(name, value string) bunnynet.EdgeRuleActionInput {
			return &bunnynet.EdgeRuleActionArgs{Type: pulumi.String("SetResponseHeader"), Parameters: pulumi.StringArray{pulumi.String(name), pulumi.String(value)}}
		}
		headers, err := bunnynet.NewEdgeRule(ctx, "security-headers", &bunnynet.EdgeRuleArgs{
			PullZoneId:  cdn.PullZoneId,
			Description: pulumi.String("security headers"),
			Priority:    pulumi.Int(1),
			Actions: bunnynet.EdgeRuleActionArray{
				header("Strict-Transport-Security", "max-age=31536000; includeSubDomains"),
				header("X-Content-Type-Options", "nosniff"),
				header("X-Frame-Options", "DENY"),
				header("Referrer-Policy", "strict-origin-when-cross-origin"),
			},
			Triggers: bunnynet.EdgeRuleTriggerArray{&bunnynet.EdgeRuleTriggerArgs{Type: pulumi.String("Url"), Patterns: pulumi.StringArray{pulumi.String("*")}}},
		})
		if err != nil {
			return err
		}

		code := "export default { fetch: () => new Response(\"hello from the edge\") };\n"
		script, err := bunnynet.NewEdgeScript(ctx, "edge", &bunnynet.EdgeScriptArgs{Name: pulumi.String(prefix + "-edge"), Type: bunnynet.EdgeScriptTypeStandalone, Code: pulumi.String(code)})
		if err != nil {
			return err
		}
		if _, err := bunnynet.NewScriptVariable(ctx, "greeting", &bunnynet.ScriptVariableArgs{ScriptId: script.ScriptId, Name: pulumi.String("GREETING"), DefaultValue: pulumi.String("hello")}); err != nil {
			return err
		}
		if _, err := bunnynet.NewScriptSecret(ctx, "api-token", &bunnynet.ScriptSecretArgs{ScriptId: script.ScriptId, Name: pulumi.String("API_TOKEN"), Value: apiToken}); err != nil {
			return err
		}

		videos, err := bunnynet.NewVideoLibrary(ctx, "videos", &bunnynet.VideoLibraryArgs{Name: pulumi.String(prefix + "-videos")})
		if err != nil {
			return err
		}
		intro, err := bunnynet.NewStreamVideo(ctx, "intro", &bunnynet.StreamVideoArgs{LibraryId: videos.LibraryId, Title: pulumi.String("Intro"), Source: pulumi.String(filepath.Join(mediaFolder, "intro.mp4"))})
		if err != nil {
			return err
		}
		poster, err := bunnynet.NewVideoThumbnail(ctx, "poster", &bunnynet.VideoThumbnailArgs{LibraryId: videos.LibraryId, VideoId: intro.VideoId, File: pulumi.String(filepath.Join(mediaFolder, "poster.png"))})
		if err != nil {
			return err
		}

		codeHash := sha256.Sum256([]byte(code))
		purge, err := bunnynet.NewCachePurge(ctx, "purge", &bunnynet.CachePurgeArgs{
			PullZoneId: cdn.PullZoneId,
			Triggers: pulumi.Map{
				"files":   content.Checksum,
				"code":    pulumi.String(hex.EncodeToString(codeHash[:])),
				"release": pulumi.String(or(cfg.Get("release"), "1")),
			},
		}, pulumi.DependsOn([]pulumi.Resource{content, script, redirect, headers}))
		if err != nil {
			return err
		}

		ctx.Export("nameservers", zone.Nameservers)
		ctx.Export("cdnHostname", cdn.CdnHostname)
		ctx.Export("url", pulumi.Sprintf("https://%s", hostname.Hostname))
		ctx.Export("certificateExpiresAt", hostname.Certificate.ExpiresAt())
		ctx.Export("shieldZoneId", shield.ShieldZoneId)
		ctx.Export("scriptId", script.ScriptId)
		ctx.Export("videoLibraryId", videos.LibraryId)
		ctx.Export("siteFiles", content.FileCount)
		ctx.Export("videoId", intro.VideoId)
		ctx.Export("videoLength", intro.Length)
		ctx.Export("thumbnailUrl", poster.ThumbnailUrl)
		ctx.Export("purgedAt", purge.PurgedAt)
		return nil
	})
}
