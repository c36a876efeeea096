package kernel

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Word is one word of a statement, with its quotes and escapes removed.
type Word struct {
	Text   string
	Quoted bool // some part of the word was quoted
	// Eq is the byte index in Text of the first '=' outside quotes, or -1.
	Eq    int
	Line  int // 1-based line of the word's first character
	Col   int // 1-based column (in characters) of the word's first character
	Start int // byte offset of the word in the source
	End   int // byte offset just past the word
}

// Stmt is one command line: its words (the first names the command) and the
// line it starts on. Continued lines (trailing \) belong to one Stmt.
type Stmt struct {
	Words []Word
	Line  int
}

// SyntaxError is a cell that cannot be split into words: an unclosed quote
// or a trailing \ with nothing after it.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// Parse splits a cell into statements: one per line; # at the start of a
// word begins a comment to the end of the line; "..." quotes (with \" and \\
// as escapes) may hold spaces and newlines; a \ at the end of a line joins
// the next line as if by a space. Empty lines and comment lines give no
// statement. A line that ends with the word << opens a block: the lines
// after it, as they are, up to a line that holds only `end`, become the
// statement's last word in the place of << (a heredoc, for mappings).
func Parse(code string) ([]Stmt, error) {
	l := lex(code)
	if l.open {
		return nil, &SyntaxError{Line: l.openLine, Col: l.openCol, Msg: `unclosed quote: add a closing "`}
	}
	if l.block {
		return nil, &SyntaxError{Line: l.blockLine, Col: l.blockCol, Msg: "<< opens a block that no line `end` closes: add a line end after its last line"}
	}
	if l.cont {
		return nil, &SyntaxError{Line: l.contLine, Col: l.contCol,
			Msg: `\ at the end of the cell continues nothing: remove it or add the next line`}
	}
	return l.stmts, nil
}

// lexer splits source into statements. It never fails: an unclosed quote or
// a trailing \ are recorded, so that completion and is_complete can use a
// partial cell.
type lexer struct {
	src       string
	i         int // byte offset
	line, col int

	stmts  []Stmt
	cur    Stmt
	word   strings.Builder
	w      Word
	inWord bool

	open              bool // the source ends inside a quote
	openLine, openCol int
	cont              bool // the source ends with a continuation \
	contLine, contCol int
	block             bool // the source ends inside a << block
	blockLine         int
	blockCol          int
	space             bool // the source ends outside a word
	tail              Stmt // the statement the source ends in (maybe empty)
}

func lex(src string) *lexer {
	l := &lexer{src: src, line: 1, col: 1}
	for l.i < len(src) {
		l.step()
	}
	l.space = !l.inWord
	l.endWord()
	l.tail = l.cur
	l.endStmt()
	return l
}

func (l *lexer) peek() rune {
	r, _ := utf8.DecodeRuneInString(l.src[l.i:])
	return r
}

// advance moves past one rune, keeping line and column.
func (l *lexer) advance() rune {
	r, n := utf8.DecodeRuneInString(l.src[l.i:])
	l.i += n
	if r == '\n' {
		l.line, l.col = l.line+1, 1
	} else {
		l.col++
	}
	return r
}

func (l *lexer) step() {
	switch r := l.peek(); {
	case r == '"':
		l.quote()
	case r == '\\' && l.continuation():
	case r == '\n':
		l.endWord()
		if !l.heredoc() {
			l.endStmt()
			l.advance()
		}
	case r == ' ' || r == '\t' || r == '\r':
		l.endWord()
		l.advance()
	case r == '#' && !l.inWord:
		for l.i < len(l.src) && l.peek() != '\n' {
			l.advance()
		}
	default:
		l.startWord()
		if r == '=' && l.w.Eq < 0 {
			l.w.Eq = l.word.Len()
		}
		l.word.WriteRune(l.advance())
	}
}

// continuation consumes a \ followed by blanks up to a newline or the end
// of the source, and reports whether it did.
func (l *lexer) continuation() bool {
	j := l.i + 1
	for j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t' || l.src[j] == '\r') {
		j++
	}
	if j < len(l.src) && l.src[j] != '\n' {
		return false
	}
	line, col := l.line, l.col
	l.endWord()
	for l.i < j {
		l.advance()
	}
	if l.i == len(l.src) {
		l.cont, l.contLine, l.contCol = true, line, col
		return true
	}
	l.advance() // the newline
	return true
}

// quote consumes a quoted part of a word.
func (l *lexer) quote() {
	l.startWord()
	l.w.Quoted = true
	line, col := l.line, l.col
	l.advance()
	for l.i < len(l.src) {
		r := l.advance()
		switch {
		case r == '"':
			return
		case r == '\\' && l.i < len(l.src) && (l.peek() == '"' || l.peek() == '\\'):
			l.word.WriteRune(l.advance())
		default:
			l.word.WriteRune(r)
		}
	}
	l.open, l.openLine, l.openCol = true, line, col
}

// heredoc reads the block that a statement ending with the word << opens,
// from the newline after it through its line `end`, and reports whether
// there was one. The block's lines, without the last newline, replace <<;
// the word's Start and End span the block through its end line.
func (l *lexer) heredoc() bool {
	n := len(l.cur.Words)
	if n == 0 || l.cur.Words[n-1].Text != "<<" || l.cur.Words[n-1].Quoted {
		return false
	}
	open := l.cur.Words[n-1]
	l.advance() // the newline
	w := Word{Quoted: true, Eq: -1, Line: l.line, Col: 1, Start: l.i}
	for l.i < len(l.src) {
		start := l.i
		for l.i < len(l.src) && l.peek() != '\n' {
			l.advance()
		}
		if strings.TrimSpace(l.src[start:l.i]) == "end" {
			w.End = l.i // the word's source holds its end line
			w.Text = strings.TrimSuffix(strings.ReplaceAll(l.src[w.Start:max(start-1, w.Start)], "\r\n", "\n"), "\r")
			l.cur.Words[n-1] = w
			l.endStmt()
			return true
		}
		if l.i < len(l.src) {
			l.advance()
		}
	}
	l.block, l.blockLine, l.blockCol = true, open.Line, open.Col
	l.cur.Words = l.cur.Words[:n-1]
	return true
}

func (l *lexer) startWord() {
	if l.inWord {
		return
	}
	l.inWord = true
	l.w = Word{Eq: -1, Line: l.line, Col: l.col, Start: l.i}
	l.word.Reset()
}

func (l *lexer) endWord() {
	if !l.inWord {
		return
	}
	l.inWord = false
	l.w.Text = l.word.String()
	l.w.End = l.i
	if len(l.cur.Words) == 0 {
		l.cur.Line = l.w.Line
	}
	l.cur.Words = append(l.cur.Words, l.w)
}

func (l *lexer) endStmt() {
	if len(l.cur.Words) > 0 {
		l.stmts = append(l.stmts, l.cur)
	}
	l.cur = Stmt{}
}
