// Command sdkgen is a language plugin that only generates SDKs: built once and installed as `pulumi-language-python`
// and `pulumi-language-go` in a folder of its own (never beside the CLI, never on PATH for running programs), it lets
// the real CLI's `pulumi package gen-sdk` run. The real language hosts are separate Go modules since v3.69.0
// (sdk/python/cmd/pulumi-language-python/v3, sdk/go/pulumi-language-go/v3), which the module proxy reachable here
// refuses (403 "This module version is not available", as for the Node.js host: ../nodejs-host/go.mod). Their
// GeneratePackage binds the schema and hands it to the code generator of pkg/v3 (pkg/codegen/python, pkg/codegen/go),
// which is in the CLI's own module: this plugin calls that same generator, so the SDKs are what the real hosts write.
// Every other LanguageRuntime method answers Unimplemented.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

type generator struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	language string
}

// generate writes the files of one language's SDK: Python takes overlays, Go local dependencies (as the real hosts).
func (g *generator) generate(pkg *schema.Package, loader schema.ReferenceLoader, req *pulumirpc.GeneratePackageRequest) (map[string][]byte, error) {
	tool := "pulumi-language-" + g.language
	switch g.language {
	case "python":
		return pygen.GeneratePackage(tool, pkg, req.ExtraFiles, loader)
	case "go":
		if len(req.ExtraFiles) > 0 {
			return nil, fmt.Errorf("overlays are not supported for Go")
		}
		return gogen.GeneratePackage(tool, pkg, req.LocalDependencies)
	}
	return nil, fmt.Errorf("sdkgen generates python and go, not %q", g.language)
}

func (g *generator) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	client, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	loader := schema.NewCachedLoader(client)

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.Schema), &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	response := &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}
	if diags.HasErrors() {
		return response, nil
	}
	files, err := g.generate(pkg, loader, req)
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		path := filepath.Join(req.Directory, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, err
		}
	}
	return response, nil
}

func (g *generator) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "0.0.0-sdkgen"}, nil
}

func main() {
	language := strings.TrimPrefix(filepath.Base(os.Args[0]), "pulumi-language-")
	if language != "python" && language != "go" {
		fmt.Fprintf(os.Stderr, "sdkgen: install this binary as pulumi-language-python or pulumi-language-go (was started as %s)\n", os.Args[0])
		os.Exit(2)
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &generator{language: language})
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
	// The CLI reads the port from the first line of stdout, then stops the plugin when done.
	fmt.Println(handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}
