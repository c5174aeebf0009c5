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
