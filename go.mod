module github.com/crossslot/crossslot

go 1.26
