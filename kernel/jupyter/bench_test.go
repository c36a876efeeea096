package jupyter

import "testing"

func BenchmarkDecode(b *testing.B) {
	s := signer{key: []byte("0123456789abcdef0123456789abcdef")}
	frames := sample(s)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.decode(frames); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTrip measures execute_request → execute_reply and idle over
// tcp loopback with a trivial handler: the protocol layer's own cost.
func BenchmarkRoundTrip(b *testing.B) {
	_, c := startKernel(b, &fakeHandler{})
	b.ReportAllocs()
	for b.Loop() {
		id := c.execute("echo hi", true)
		c.next(c.shellC, "reply")
		c.iopubUntilIdle(id)
	}
}
