module github.com/botarena/botarena

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e
	pgregory.net/rapid v1.3.0
)
