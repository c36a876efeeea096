module github.com/proflens/proflens

go 1.24
