package html

// css styles the page for screens and for print; status colours meet WCAG AA contrast and
// always come with a symbol and a word.
const css = `
:root{--fg:#1b1b1b;--muted:#595959;--line:#d0d0d0;--bg:#fff;--alt:#f6f6f6;--pass:#1e6b1e;--passbg:#e5f3e5;--fail:#a1140f;--failbg:#fde7e6;--nc:#4a4a4a;--ncbg:#eeeeee;--err:#7a4700;--errbg:#fff1d6;--bug:#5a3d8a;--bugbg:#efe8fa;--diff:#fff8c4}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
header,main{max-width:1400px;margin:0 auto;padding:0 1.2rem}
header{padding-top:1rem;border-bottom:1px solid var(--line)}
h1{font-size:1.6rem;margin:.2rem 0}
h2{font-size:1.3rem;margin:2rem 0 .6rem;padding-top:.4rem;border-top:2px solid var(--fg)}
h3{font-size:1.1rem;margin:1.2rem 0 .4rem}
h4{font-size:1rem;margin:0 0 .3rem}
h5{font-size:.9rem;margin:.6rem 0 .2rem}
.sub,.lead{color:var(--muted);margin:.2rem 0}
.lead{color:var(--fg);font-size:1.05rem}
nav ul{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}
a{color:#0b4f9c}
a:focus-visible,summary:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #f0a000;outline-offset:1px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.3rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
code,pre{font:13px/1.4 ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--alt);border:1px solid var(--line);padding:.4rem .6rem;margin:.3rem 0;max-height:28rem;overflow:auto}
table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
thead th{background:var(--alt);position:sticky;top:0;z-index:1}
caption{text-align:left;color:var(--muted);padding:.2rem 0}
.num{text-align:right;font-variant-numeric:tabular-nums}
.verdicts td,.verdicts th{vertical-align:middle}
.impl{font-weight:600}
.run{display:grid;grid-template-columns:max-content 1fr;gap:0 .8rem;margin:.3rem 0;font-weight:400;font-size:.85rem}
.run dt{color:var(--muted)}.run dd{margin:0;overflow-wrap:anywhere}
.t-pass{color:var(--pass)}.t-partial{color:#23507a}.t-fail{color:var(--fail)}.t-error{color:var(--err)}.t-neutral{color:var(--nc)}
.v{overflow-wrap:anywhere;max-width:28rem}
.ino{display:inline-block;min-width:1.4em;text-align:center;border-radius:1em;background:var(--fg);color:#fff;font-size:.8em;font-weight:700}
.grid{width:100%}
.grid .ih{min-width:9rem;font-size:.85rem}
tr.group th{background:#e9eef5;font-weight:600}
.cnt{white-space:nowrap;font-variant-numeric:tabular-nums}
.pass{background:var(--passbg);color:var(--pass)}
.fail{background:var(--failbg);color:var(--fail);font-weight:600}
.nc{background:var(--ncbg);color:var(--nc)}
.err{background:var(--errbg);color:var(--err);font-weight:600}
.bug{background:var(--bugbg);color:var(--bug)}
.none{color:var(--muted)}
td.s{text-align:center;width:5.5rem;white-space:nowrap}
td.s i{font-style:normal;font-size:0}
td.s i::before{font-size:15px;font-weight:700}
td.s a{color:inherit;text-decoration:underline;display:block}
td.d,th.d{width:1.6rem;text-align:center;font-weight:700;color:var(--fail)}
tr.differs>th,div.clause.differs .ctext{box-shadow:inset 4px 0 0 #d4a000}
tr.differs td.d{background:var(--diff)}
.checks th[scope=row]{font-weight:400;max-width:42rem}
.matrix .rtext{font-size:.82rem;min-width:26rem;max-width:44rem}
.matrix th[scope=row]{white-space:nowrap}
.cchecks small{color:var(--muted)}
.checks summary{cursor:pointer;overflow-wrap:anywhere}
.checks details>div{font-size:.85rem;margin:.3rem 0}
.filters{position:sticky;top:0;z-index:3;background:#fffbe6;border:1px solid #e2cf7a;padding:.4rem .7rem;margin:1rem 0;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center}
.filters output{color:var(--muted)}
.failure{border:1px solid var(--line);border-left:5px solid var(--fail);padding:.6rem .8rem;margin:.8rem 0;break-inside:avoid}
.failure .msg{margin:.2rem 0 .4rem;font-weight:600}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;font-size:.8rem}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:0 .8rem;margin:.3rem 0;font-size:.9rem}
.meta dt{color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
.wg{display:grid;grid-template-columns:1fr 1fr;gap:.8rem}
.wg>div{min-width:0}
.diff .del{background:var(--failbg);color:var(--fail);display:block}
.diff .ins{background:var(--passbg);color:var(--pass);display:block}
.diff .gap{color:var(--muted);display:block}
.first code{background:var(--diff);padding:0 .2rem}
.ok{color:var(--pass);font-weight:600}
.legend{color:var(--muted);font-size:.9rem}
.spec{max-width:100%}
.spec h3{border-bottom:1px solid var(--line);padding-bottom:.2rem}
.spec-table td,.spec-table th{font-size:.9rem}
.clause{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1rem;border-top:1px solid var(--line);padding:.5rem 0}
.clause:target,tr:target>th,.failure:target{outline:3px solid #f0a000}
.ctext{padding-left:.4rem}
.rid{font-weight:700;white-space:nowrap}
.cchecks table{width:100%;margin:0;font-size:.82rem}
.cchecks th[scope=row]{font-weight:400;overflow-wrap:anywhere}
.cchecks td.s{width:2.4rem}
.cchecks p{margin:0}
.cchecks tr.in>th{padding-left:1.4rem}
.cchecks td.cnt{font-size:.78rem}
[hidden]{display:none!important}
[id]{scroll-margin-top:4.5rem}
/* Long sections are laid out only when scrolled to: the page loads fast with 3 × 450 checks. */
#matrix,#checks{content-visibility:auto;contain-intrinsic-size:auto 20000px}
.clause{content-visibility:auto;contain-intrinsic-size:auto 140px}
@media (max-width:800px){.clause,.wg{grid-template-columns:1fr}}
@media print{
 body{font-size:10pt}
 .filters,.skip,header nav{display:none!important}
 thead th{position:static}
 pre{max-height:none;overflow:visible}
 h2{break-after:avoid}
 tr,.clause{break-inside:avoid}
 #matrix,#checks,.clause{content-visibility:visible}
 a{color:inherit;text-decoration:none}
 .pass,.fail,.nc,.err,.bug,.diff .del,.diff .ins{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`

// script shows the filter bar and applies it; without it the page shows everything.
const script = `
(function(){
var f=document.getElementById('filters');if(!f)return;f.hidden=false;
var fail=document.getElementById('f-fail'),diff=document.getElementById('f-diff'),area=document.getElementById('f-area'),req=document.getElementById('f-req'),text=document.getElementById('f-text'),count=document.getElementById('f-count');
var rows=[].slice.call(document.querySelectorAll('main [data-st],#checks tr[data-req]'));
var groups=[].slice.call(document.querySelectorAll('tbody'));
// A check row has no data-st or data-area of its own: its statuses are its cells' classes,
// its area its group's.
function st(el){var s=el.getAttribute('data-st');if(s===null){s=[].map.call(el.querySelectorAll('td.s'),function(td){return td.classList[1]}).join(' ');el.setAttribute('data-st',s)}return s}
function areaOf(el){var h=el.closest('[data-area]');return h?h.getAttribute('data-area'):''}
function apply(){
 var q=text.value.trim().toLowerCase(),a=area.value,r=req.value,shown=0,total=0;
 rows.forEach(function(el){
  var ok=true;
  if(fail.checked&&!/\b(fail|err)\b/.test(st(el)))ok=false;
  if(ok&&diff.checked&&!el.classList.contains('differs'))ok=false;
  if(ok&&a&&areaOf(el).indexOf(' '+a+' ')<0)ok=false;
  if(ok&&r&&el.getAttribute('data-req').indexOf(' '+r+' ')<0)ok=false;
  if(ok&&q&&el.textContent.toLowerCase().indexOf(q)<0)ok=false;
  el.hidden=!ok;
  if(el.id&&el.id.indexOf('c-')===0){total++;if(ok)shown++;}
 });
 groups.forEach(function(g){var h=g.querySelector('tr.group');if(!h)return;var any=g.querySelector('tr[data-req]:not([hidden])');h.hidden=!any&&g.querySelector('tr[data-req]')!==null;});
 var on=fail.checked||diff.checked||a||r||q;
 count.value=on?shown+' of '+total+' checks shown':'';
 var p=new URLSearchParams();if(fail.checked)p.set('failures','1');if(diff.checked)p.set('differences','1');if(a)p.set('area',a);if(r)p.set('requirement',r);if(q)p.set('text',q);
 var s=p.toString();try{history.replaceState(null,'',location.pathname+(s?'?'+s:'')+location.hash)}catch(e){} // some engines refuse it on file: pages
}
var p=new URLSearchParams(location.search);
fail.checked=p.get('failures')==='1';diff.checked=p.get('differences')==='1';area.value=p.get('area')||'';req.value=p.get('requirement')||'';text.value=p.get('text')||'';
[fail,diff,area,req].forEach(function(el){el.addEventListener('change',apply)});
text.addEventListener('input',apply);
if(fail.checked||diff.checked||area.value||req.value||text.value)apply();
window.addEventListener('beforeprint',function(){[].forEach.call(document.querySelectorAll('.failure details'),function(d){d.open=true})});
})();
`
