package main

import (
	"encoding/json"
	"net/http"
	"strings"

	"example.com/learn/internal/ids"
)

func routes(s *services) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /courses/{id}", func(w http.ResponseWriter, r *http.Request) {
		title, n, err := s.Catalog.CourseCard(r.Context(), ids.CourseID(r.PathValue("id")))
		reply(w, map[string]any{"title": title, "enrolled": n}, err)
	})
	mux.HandleFunc("POST /courses/{id}/enroll", func(w http.ResponseWriter, r *http.Request) {
		err := s.Catalog.ReserveSeat(r.Context(), ids.UserID(r.Header.Get("X-User")), ids.CourseID(r.PathValue("id")))
		reply(w, "ok", err)
	})
	mux.HandleFunc("GET /me/resume", func(w http.ResponseWriter, r *http.Request) {
		var cs []ids.CourseID
		for c := range strings.SplitSeq(r.URL.Query().Get("courses"), ",") {
			cs = append(cs, ids.CourseID(c))
		}
		pts, err := s.Progress.ResumePointsV2(r.Context(), ids.UserID(r.Header.Get("X-User")), cs)
		reply(w, pts, err)
	})
	mux.HandleFunc("GET /leaders", func(w http.ResponseWriter, r *http.Request) {
		var cs []ids.CourseID
		for c := range strings.SplitSeq(r.URL.Query().Get("courses"), ",") {
			cs = append(cs, ids.CourseID(c))
		}
		l, err := s.Board.Leaders(r.Context(), cs)
		reply(w, l, err)
	})
	return mux
}

func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
