import re,subprocess,sys,glob,os
root=sys.argv[1] if len(sys.argv)>1 else '.'
lua=lambda f: open(f"{root}/schema/{f}").read()
names=set()
for m in re.finditer(r'\bname = "([^"]+)"', lua("phases.lua")): names.add(m.group(1))
for m in re.finditer(r'\bkey = "([^"]+)"', lua("lanes.lua")): names.add(m.group(1))
for m in re.finditer(r'\bname = "([^"]+)"', lua("lanes.lua")): names.add(m.group(1))
for m in re.finditer(r'process_name = "([^"]+)"', lua("lanes.lua")): names.add(m.group(1))
for m in re.finditer(r'\bname = "([^"]+)"', lua("platforms.lua")): names.add(m.group(1))
for m in re.finditer(r'\bname = "([^"]+)"', lua("levels.lua")): names.add(m.group(1))
names={n for n in names if "{" not in n and len(n)>2}
files=[f for d in ("tools","host","runtime","codegen") for f in glob.glob(f"{root}/{d}/**/*.[ch]",recursive=True)]
hits=[]
for f in files:
    for i,line in enumerate(open(f,errors="replace"),1):
        code=re.sub(r'/\*.*?\*/|//.*','',line)
        for n in names:
            if f'"{n}"' in code: hits.append((f[len(root)+1:],i,n,line.strip()))
        if re.search(r'\blevel\w*\s*(>=|<=|==|!=|<|>)\s*[0-9]\b', code): hits.append((f[len(root)+1:],i,"level-number",line.strip()))
for h in hits: print("%s:%d: [%s] %s"%h)
print(len(hits),"hits")
