package plotting

import (
	"bytes"
	"html"
)

// The cels player is plain HTML that works offline: the cels as small
// multiples, side by side, and a script that, where scripts run (a trusted
// notebook, an exported page), shows one cel at a time under a bar with
// step back, play and step forward buttons and a slider; the other cels
// leave the page until shown. Where scripts do not run, the small multiples
// stay. The script finds its players by class, so the page needs no ids,
// and marks each one it has set up.

// celsScript turns every .pl-cels not yet set up into a player.
const celsScript = `(function(){
var roots=document.querySelectorAll('.pl-cels:not([data-pl-ready])');
Array.prototype.forEach.call(roots,function(root){
root.setAttribute('data-pl-ready','1');
var frames=Array.prototype.slice.call(root.querySelectorAll('.pl-cel')),n=frames.length,cur=0,timer=null;
if(n<2)return;
var holder=frames[0].parentNode;
for(var i=1;i<n;i++){holder.removeChild(frames[i]);}
var bar=document.createElement('div');
bar.style.cssText='display:flex;gap:6px;align-items:center;margin:4px 0;font:12px monospace';
function button(text,title,fn){var b=document.createElement('button');b.textContent=text;b.title=title;b.onclick=fn;bar.appendChild(b);return b;}
function stop(){if(timer){clearInterval(timer);timer=null;}play.textContent='\u25b6 play';}
function show(k){k=Math.max(0,Math.min(n-1,k));if(k!=cur){holder.replaceChild(frames[k],frames[cur]);cur=k;}slider.value=cur;label.textContent='cel '+(cur+1)+' of '+n;}
button('\u25c0','step back',function(){stop();show(cur-1);});
var play=button('\u25b6 play','play the cels',function(){
if(timer){stop();return;}
if(cur==n-1){show(0);}
play.textContent='\u275a\u275a pause';
timer=setInterval(function(){if(cur>=n-1){stop();return;}show(cur+1);},700);});
button('\u25b6','step forward',function(){stop();show(cur+1);});
var slider=document.createElement('input');
slider.type='range';slider.min=0;slider.max=n-1;slider.oninput=function(){stop();show(+slider.value);};
bar.appendChild(slider);
var label=document.createElement('span');bar.appendChild(label);
root.insertBefore(bar,root.firstChild);
show(0);
});
})();`

// Inline embeds a cel in the player as inline SVG, with its tooltips: for
// pages that are trusted, such as an exported file.
func Inline(svg []byte, _ int) string { return string(bytes.TrimSuffix(svg, []byte("\n"))) }

// CelsPlayer returns the player of the cels, each put in the page by embed
// (given the cel's SVG and index): Inline, or the caller's own form, such
// as an <img> that front ends keep where they remove inline SVG.
func CelsPlayer(cels [][]byte, embed func(svg []byte, k int) string) []byte {
	var b bytes.Buffer
	b.WriteString(`<div class="pl-cels">` + "\n")
	b.WriteString(`<div style="display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start">` + "\n")
	for k, c := range cels {
		b.WriteString(`<div class="pl-cel">`)
		b.WriteString(embed(c, k))
		b.WriteString("</div>\n")
	}
	b.WriteString("</div>\n<script>" + celsScript + "</script>\n</div>\n")
	return b.Bytes()
}

// CelsPage returns the player as a page of its own, for a file that opens
// offline in any browser.
func CelsPage(pic *CelsPicture, title string) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(html.EscapeString(title))
	b.WriteString("</title>\n</head>\n<body>\n<h1 style=\"font:16px monospace\">")
	b.WriteString(html.EscapeString(title))
	b.WriteString("</h1>\n")
	b.Write(pic.Player)
	b.WriteString("</body>\n</html>\n")
	return b.Bytes()
}
