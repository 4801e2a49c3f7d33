module github.com/rallyjudge/rallyjudge

go 1.26.8
