// Package ids holds the identifier types shared by the learning platform's services.
package ids

// UserID identifies a learner.
type UserID string

// CourseID identifies a course in the catalog.
type CourseID string

// LessonID identifies a lesson inside a course.
type LessonID string

// QuizID identifies a quiz.
type QuizID string

// AttemptID identifies one attempt at a quiz.
type AttemptID string

// CertID identifies an issued certificate.
type CertID string

// InstructorID identifies an instructor who is paid out.
type InstructorID string
