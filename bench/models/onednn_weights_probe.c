// bench/models/onednn_weights_probe.c: how much oneDNN's matmul gains from
// weights reordered once into its preferred layout (what the model
// benchmark's harness does, as frameworks do) against plain row-major
// weights and dnnl_sgemm, fp32, 1 thread, thread CPU time (usable on a
// loaded machine), best of 9 rounds of 200 calls. Not a test.
//   clang-22 -O2 bench/models/onednn_weights_probe.c -o probe -ldnnl
//   OMP_NUM_THREADS=1 ./probe
#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define CHECK(x) do { if ((x) != dnnl_success) { printf("fail %s\n", #x); exit(1);} } while (0)
static dnnl_engine_t eng; static dnnl_stream_t st;
static double cpu(){struct timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec+1e-9*t.tv_nsec;}
typedef struct { dnnl_primitive_t p; dnnl_memory_t s, w, d; } MM;
static MM make(long m,long k,long n,float*A,float*B,float*C,int any){
  MM r; dnnl_memory_desc_t sd,wd,dd,wp; dnnl_dims_t a={m,k},b={k,n},c={m,n};
  CHECK(dnnl_memory_desc_init_by_tag(&sd,2,a,dnnl_f32,dnnl_ab));
  CHECK(dnnl_memory_desc_init_by_tag(&wd,2,b,dnnl_f32,any?dnnl_format_tag_any:dnnl_ab));
  CHECK(dnnl_memory_desc_init_by_tag(&wp,2,b,dnnl_f32,dnnl_ab));
  CHECK(dnnl_memory_desc_init_by_tag(&dd,2,c,dnnl_f32,dnnl_ab));
  dnnl_matmul_desc_t desc; CHECK(dnnl_matmul_desc_init(&desc,&sd,&wd,NULL,&dd));
  dnnl_primitive_desc_t pd; CHECK(dnnl_primitive_desc_create(&pd,&desc,NULL,eng,NULL));
  const char*impl; CHECK(dnnl_primitive_desc_query(pd,dnnl_query_impl_info_str,0,&impl));
  const dnnl_memory_desc_t *wpref=dnnl_primitive_desc_query_md(pd,dnnl_query_weights_md,0);
  dnnl_memory_t plain; CHECK(dnnl_memory_create(&plain,&wp,eng,B));
  CHECK(dnnl_memory_create(&r.w,wpref,eng,DNNL_MEMORY_ALLOCATE));
  dnnl_primitive_desc_t rpd; CHECK(dnnl_reorder_primitive_desc_create(&rpd,&wp,eng,wpref,eng,NULL));
  dnnl_primitive_t ro; CHECK(dnnl_primitive_create(&ro,rpd));
  dnnl_exec_arg_t ra[2]={{DNNL_ARG_FROM,plain},{DNNL_ARG_TO,r.w}}; CHECK(dnnl_primitive_execute(ro,st,2,ra)); dnnl_stream_wait(st);
  CHECK(dnnl_memory_create(&r.s,&sd,eng,A)); CHECK(dnnl_memory_create(&r.d,&dd,eng,C));
  CHECK(dnnl_primitive_create(&r.p,pd)); printf("%ldx%ldx%ld %s: %s\n",m,n,k,any?"reordered":"plain",impl); return r;}
static void run(MM*r){dnnl_exec_arg_t a[3]={{DNNL_ARG_SRC,r->s},{DNNL_ARG_WEIGHTS,r->w},{DNNL_ARG_DST,r->d}}; dnnl_primitive_execute(r->p,st,3,a); dnnl_stream_wait(st);}
int main(){
  CHECK(dnnl_engine_create(&eng,dnnl_cpu,0)); CHECK(dnnl_stream_create(&st,eng,dnnl_stream_default_flags));
  long sh[][3]={{16,1024,256},{16,256,1024},{64,1024,256},{256,1024,256},{256,256,1024},{16,3072,768}};
  for(int s=0;s<6;s++){ long m=sh[s][0],n=sh[s][1],k=sh[s][2];
    float*A=malloc(m*k*4),*B=malloc(k*n*4),*C=malloc(m*n*4); for(long i=0;i<m*k;i++)A[i]=1;for(long i=0;i<k*n;i++)B[i]=1;
    MM x=make(m,k,n,A,B,C,1), y=make(m,k,n,A,B,C,0); double tx=1e9,ty=1e9, tz=1e9;
    for(int r=0;r<9;r++){ double t0=cpu(); for(int j=0;j<200;j++)run(&x); double t1=cpu(); for(int j=0;j<200;j++)run(&y); double t2=cpu();
      for(int j=0;j<200;j++) dnnl_sgemm('N','N',m,n,k,1.f,A,k,B,n,0.f,C,n); double t3=cpu();
      if(t1-t0<tx)tx=t1-t0; if(t2-t1<ty)ty=t2-t1; if(t3-t2<tz)tz=t3-t2;}
    double f=2.0*m*n*k*200; printf("  reordered %.0f  plain %.0f  sgemm %.0f GFLOP/s (best of 9, thread CPU time)\n",f/tx/1e9,f/ty/1e9,f/tz/1e9);}
}
