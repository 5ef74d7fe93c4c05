package workloads_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/schedsweep/schedsweep/workloads"
)

func ExampleLookupTrace() {
	t, err := workloads.LookupTrace("kth-sp2")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Name, t.File, t.Procs, "processors")
	fmt.Println("thank:", t.Acknowledge)

	_, err = workloads.LookupTrace("KTH-SP3")
	fmt.Println(errors.Is(err, workloads.ErrUnknownTrace))
	// Output:
	// KTH-SP2 KTH-SP2-1996-2.1-cln.swf.gz 100 processors
	// thank: Lars Malinowsky, Swedish Royal Institute of Technology (KTH), who provided the SP2 log
	// true
}

func ExampleResolveTrace() {
	cache, err := os.MkdirTemp("", "traces")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)

	_, _, err = workloads.ResolveTrace(cache, "CTC-SP2")
	fmt.Println(errors.Is(err, workloads.ErrNotCached))
	fmt.Println(workloads.FetchCommand("CTC-SP2"))
	// Output:
	// true
	// schedsweep trace fetch CTC-SP2
}

func ExampleFetch() {
	// A tiny gzip trace served on the loopback interface.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	fmt.Fprintln(zw, "1 0 -1 60 1 -1 -1 1 60 -1 1 1 1 -1 1 1 -1 -1")
	zw.Close()
	sum := sha256.Sum256(gz.Bytes())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(gz.Bytes())
	}))
	defer srv.Close()

	cache, err := os.MkdirTemp("", "traces")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)
	t := workloads.ArchiveTrace{
		Name: "tiny", File: "tiny.swf.gz", URL: srv.URL + "/tiny.swf.gz",
		SHA256: hex.EncodeToString(sum[:]), Size: int64(gz.Len()),
	}
	path, err := workloads.Fetch(context.Background(), srv.Client(), t, cache, nil)
	if err != nil {
		log.Fatal(err)
	}
	_, cached := workloads.CachedPath(cache, t)
	fmt.Println(filepath.Base(path), cached)
	// Output:
	// tiny.swf.gz true
}
