package kernel

import (
	"encoding/base64"
	"html"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

// The MIME types a picture is sent as (set pictures=...).
const (
	PicturesHTML = "html" // text/html: the picture as an <img> that turns into inline SVG when trusted
	PicturesSVG  = "svg"  // image/svg+xml only
	PicturesBoth = "both" // both of them
)

// PictureModes are the values of the pictures setting, the default first.
var PictureModes = []string{PicturesHTML, PicturesSVG, PicturesBoth}

// upgrade is the onload handler of a picture's <img>: it decodes the SVG
// from the image's own data URL and puts it inline in the image's place,
// where its <title> tooltips and hover styles work. Front ends run it only
// for trusted output (JupyterLab, the classic Notebook and nbconvert's HTML
// run inline handlers; their sanitizers remove them from untrusted output,
// which keeps the <img>). It touches only its own element, so a trusted
// output never inlines another output's SVG.
const upgrade = "var t=document.createElement('template');" +
	"t.innerHTML=new TextDecoder().decode(Uint8Array.from(atob(this.src.slice(this.src.indexOf(',')+1)),function(c){return c.charCodeAt(0)}));" +
	"var s=t.content.querySelector('svg');if(s)this.replaceWith(s)"

// PictureBundle returns the bundle of an SVG picture in mode (PicturesHTML,
// PicturesSVG or PicturesBoth; "" is PicturesHTML), with alt as text/plain.
//
// In text/html the picture is an <img> of the SVG as a data URL, with an
// onload handler that replaces it by the inline SVG. An inline <svg> in
// text/html is lost when untrusted: JupyterLab's sanitizer removes it and
// leaves its text as one run-on paragraph, the classic Notebook's too. An
// <img> with a data URL survives both, so a saved notebook opened by
// someone else still shows its pictures, and trusted output still gets the
// inline SVG with tooltips. image/svg+xml alone shows in JupyterLab only
// through an <img>, and only when trusted.
func PictureBundle(svg []byte, alt, mode string) jupyter.Bundle {
	b := jupyter.Bundle{"text/plain": alt}
	if mode != PicturesSVG {
		b["text/html"] = PictureHTML(svg, alt)
	}
	if mode == PicturesSVG || mode == PicturesBoth {
		b["image/svg+xml"] = string(svg)
	}
	return b
}

// PictureHTML is the text/html of a picture: an <img> of the SVG with alt's
// first line as its alt text, and the handler that inlines it.
func PictureHTML(svg []byte, alt string) string {
	first, _, _ := strings.Cut(alt, "\n")
	return `<img class="proflens-picture" src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString(svg) +
		`" alt="` + html.EscapeString(first) + `" onload="` + upgrade + `">`
}

// Picture shows an SVG picture as display_data in the session's pictures
// mode, with alt as its text.
func (c *Call) Picture(svg []byte, alt string) {
	c.Out.Display(PictureBundle(svg, alt, c.Session.Settings.Pictures), nil)
}
